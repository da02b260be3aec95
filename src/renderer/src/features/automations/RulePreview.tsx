import { useEffect, useMemo, useState } from 'react';
import type { matchAutomation as matchAutomationType } from '../../../../shared/domain/automation-match.ts';
import type { Criterion } from '../../../../shared/domain/automation.ts';
import type { Email } from '../../../../shared/domain/email.ts';
import { useStore } from '../../store.ts';
import type { AutomationDraft } from './slice.ts';

type Matcher = typeof matchAutomationType;

/** The service's own matcher (RE2, as in src/server), loaded when a rule is first edited. */
let matcher: Promise<Matcher> | null = null;
const loadMatcher = () => (matcher ??= import('../../../../shared/domain/automation-match.ts').then((m) => m.matchAutomation));

export interface PreviewResult {
  matches: { email: Email; hits: Criterion[] }[];
  total: number;
}

/** Which of these emails the rule as drafted catches, and on which criteria. Pure. */
export function previewRule(match: Matcher, draft: AutomationDraft, emails: Email[]): PreviewResult {
  const rule = {
    subject: draft.subject.trim() || null,
    sender: draft.sender.trim() || null,
    inbox: draft.inbox.trim() || null,
    has_attachments: draft.has_attachments,
  };
  const matches: PreviewResult['matches'] = [];
  for (const email of emails) {
    const hits = match(rule, { subject: email.subject, sender: email.sender.email, inbox: email.inbox.email, attachmentCount: email.attachments.length });
    if (hits !== null) matches.push({ email, hits });
  }
  return { matches, total: emails.length };
}

const LABELS: Record<Criterion, string> = { subject: 'subject', sender: 'sender', inbox: 'inbox', has_attachments: 'attachments' };

/** Live: which recent emails the rule would catch, updated as the form changes. */
export function RulePreview({ draft }: { draft: AutomationDraft }) {
  const pool = useStore((s) => s.previewPool);
  const loadPool = useStore((s) => s.loadPreviewPool);
  const [match, setMatch] = useState<Matcher | null>(null);
  useEffect(() => {
    void loadMatcher().then((m) => setMatch(() => m));
    void loadPool();
  }, [loadPool]);
  const result = useMemo(() => (match && pool ? previewRule(match, draft, pool) : null), [match, pool, draft]);
  useEffect(() => {
    useStore.setState({
      previewCount: result ? { matches: result.matches.length, total: result.total } : null,
      previewMatches: result ? result.matches.slice(0, 20).map(({ email }) => ({ id: email.id, subject: email.subject })) : [],
    });
  }, [result]);
  if (!result) return <p className="preview empty">Looking at recent mail…</p>;
  const shown = result.matches.slice(0, 12);
  return (
    <section className="preview" aria-label="What this rule catches" aria-live="polite">
      <h4>
        Matches {result.matches.length} of the last {result.total} emails
      </h4>
      {result.total === 0 && <p className="hint">No mail has been seen yet to try the rule on.</p>}
      <ul>
        {shown.map(({ email, hits }) => (
          <li key={email.id}>
            <span className="subject">{email.subject || '(no subject)'}</span>
            <span className="hint">
              {email.sender.email} → {email.inbox.email}
            </span>
            <span className="hits">
              {hits.length === 0 ? 'every email' : hits.map((hit) => <mark key={hit}>{LABELS[hit]}</mark>)}
            </span>
          </li>
        ))}
      </ul>
      {result.matches.length > shown.length && <p className="hint">…and {result.matches.length - shown.length} more.</p>}
    </section>
  );
}
