/** Whether an automation catches an email: the service's rule, in one place. */
import type { Automation, Criterion, MatchTarget } from './automation.ts';
import { compilePattern } from './pattern.ts';

/**
 * Every non-empty criterion must hit. The subject is a case-insensitive
 * regular expression (RE2 syntax: linear time, no backreferences or
 * lookaround). Sender and inbox are what the server's flavor says
 * (FlavorRecord.addressCriteria): email addresses, matching that address in
 * any case (the API document: "string, email format"), or regular
 * expressions (MailCare). Returns the criteria that hit, or null when the
 * automation does not match (a pattern that does not compile never matches).
 */
export function matchAutomation(
  automation: Pick<Automation, 'subject' | 'sender' | 'inbox' | 'has_attachments'>,
  target: MatchTarget,
  addressCriteria: 'address' | 'regex',
): Criterion[] | null {
  const hits: Criterion[] = [];
  const patterns = [
    ['subject', automation.subject, target.subject, false],
    ['sender', automation.sender, target.sender, addressCriteria === 'address'],
    ['inbox', automation.inbox, target.inbox, addressCriteria === 'address'],
  ] as const;
  for (const [criterion, source, value, isAddress] of patterns) {
    if (!source) continue;
    if (isAddress) {
      if (source.trim().toLowerCase() !== value.trim().toLowerCase()) return null;
    } else {
      const compiled = compilePattern(source);
      if (!compiled.ok || !compiled.pattern.test(value)) return null;
    }
    hits.push(criterion);
  }
  if (automation.has_attachments) {
    if (target.attachmentCount < 1) return null;
    hits.push('has_attachments');
  }
  return hits;
}
