/** Whether an automation catches an email: the service's rule, in one place. */
import type { Automation, Criterion, MatchTarget } from './automation.ts';
import { compilePattern } from './pattern.ts';

/**
 * Every non-empty criterion must hit. Subject, sender and inbox are
 * case-insensitive regular expressions (RE2 syntax: linear time, no
 * backreferences or lookaround). Returns the criteria that hit, or null when
 * the automation does not match (a pattern that does not compile never matches).
 */
export function matchAutomation(
  automation: Pick<Automation, 'subject' | 'sender' | 'inbox' | 'has_attachments'>,
  target: MatchTarget,
): Criterion[] | null {
  const hits: Criterion[] = [];
  const patterns = [
    ['subject', automation.subject, target.subject],
    ['sender', automation.sender, target.sender],
    ['inbox', automation.inbox, target.inbox],
  ] as const;
  for (const [criterion, source, value] of patterns) {
    if (!source) continue;
    const compiled = compilePattern(source);
    if (!compiled.ok || !compiled.pattern.test(value)) return null;
    hits.push(criterion);
  }
  if (automation.has_attachments) {
    if (target.attachmentCount < 1) return null;
    hits.push('has_attachments');
  }
  return hits;
}
