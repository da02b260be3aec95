/**
 * Which emails a drafted rule catches, judged as its server judges: the API
 * document's service with its own matcher (RE2 subjects, whole addresses),
 * MailCare with PCRE-like semantics (JavaScript's RegExp has PCRE's lookaround,
 * which RE2 refuses), each pattern wrapped as MailCare wraps it (`#…#i`).
 * A pattern only PCRE understands is reported as not previewable: never a
 * wrong count. Runs in preview.worker.ts, off the UI thread, under a time budget.
 */
import { matchAutomation } from '../../../../shared/domain/automation-match.ts';
import type { Criterion, MatchTarget } from '../../../../shared/domain/automation.ts';
import type { FlavorRecord } from '../../../../shared/flavors/index.ts';

export interface PreviewRule {
  subject: string | null;
  sender: string | null;
  inbox: string | null;
  has_attachments: boolean;
}

export type PreviewAnswer = { ok: true; hits: (Criterion[] | null)[] } | { ok: false; message: string };

/** MailCare builds `'#' . $pattern . '#i'`: an unescaped # ends the pattern early, and preg_match then fails. */
function breaksMailCareDelimiter(source: string): boolean {
  for (let i = 0; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '#') return true;
  }
  return false;
}

function mailcareMatcher(rule: PreviewRule): ((target: MatchTarget) => Criterion[] | null) | string {
  const compiled: [Criterion, RegExp, keyof MatchTarget][] = [];
  for (const [criterion, field] of [['subject', 'subject'], ['sender', 'sender'], ['inbox', 'inbox']] as const) {
    const source = rule[criterion];
    if (!source) continue;
    if (breaksMailCareDelimiter(source)) return `The ${criterion} pattern has an unescaped #: MailCare wraps patterns in # … #, so it would never match there. Write \\# instead.`;
    try {
      compiled.push([criterion, new RegExp(source, 'i'), field]);
    } catch {
      return `The ${criterion} pattern uses something only MailCare’s engine (PCRE) understands, so it cannot be previewed here.`;
    }
  }
  return (target) => {
    const hits: Criterion[] = [];
    for (const [criterion, pattern, field] of compiled) {
      if (!pattern.test(String(target[field]))) return null;
      hits.push(criterion);
    }
    if (rule.has_attachments) {
      if (target.attachmentCount < 1) return null;
      hits.push('has_attachments');
    }
    return hits;
  };
}

export function previewMatches(rule: PreviewRule, targets: MatchTarget[], traits: Pick<FlavorRecord, 'addressCriteria'>): PreviewAnswer {
  if (traits.addressCriteria === 'regex') {
    const match = mailcareMatcher(rule);
    if (typeof match === 'string') return { ok: false, message: match };
    return { ok: true, hits: targets.map(match) };
  }
  return { ok: true, hits: targets.map((target) => matchAutomation(rule, target, traits.addressCriteria)) };
}
