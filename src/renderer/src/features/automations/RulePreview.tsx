import { useEffect, useMemo, useState } from 'react';
import type { Criterion, MatchTarget } from '../../../../shared/domain/automation.ts';
import { FLAVOR_RECORDS } from '../../../../shared/flavors/index.ts';
import { activeFlavor } from '../settings/slice.ts';
import type { PreviewAnswer, PreviewRule } from './preview-match.ts';
import type { Email } from '../../../../shared/domain/email.ts';
import { useStore } from '../../store.ts';
import type { AutomationDraft } from './slice.ts';

export interface PreviewResult {
  matches: { email: Email; hits: Criterion[] }[];
  total: number;
}

/** How long a preview may take before it is given up (a pattern MailCare's engine would also crawl on). */
export const PREVIEW_BUDGET_MS = 1500;

let worker: Worker | null = null;
let nextId = 0;

/** Asks the preview worker; a worker that overruns the budget is ended, and the answer says so. */
function askWorker(rule: PreviewRule, targets: MatchTarget[], addressCriteria: 'address' | 'regex'): { answer: Promise<PreviewAnswer>; cancel: () => void } {
  worker ??= new Worker(new URL('./preview.worker.ts', import.meta.url), { type: 'module' });
  const asked = worker;
  const id = nextId++;
  let settle: (answer: PreviewAnswer) => void = () => undefined;
  const answer = new Promise<PreviewAnswer>((resolve) => (settle = resolve));
  const onMessage = (event: MessageEvent<{ id: number; answer: PreviewAnswer }>) => {
    if (event.data.id !== id) return;
    clearTimeout(timer);
    asked.removeEventListener('message', onMessage);
    settle(event.data.answer);
  };
  const timer = setTimeout(() => {
    asked.removeEventListener('message', onMessage);
    asked.terminate();
    if (worker === asked) worker = null;
    settle({ ok: false, message: `Matching this pattern against recent mail took over ${PREVIEW_BUDGET_MS / 1000} s, so it is not previewed. A backtracking engine (MailCare’s PCRE) may be as slow on real mail.` });
  }, PREVIEW_BUDGET_MS);
  asked.addEventListener('message', onMessage);
  asked.postMessage({ id, rule, targets, addressCriteria });
  return {
    answer,
    cancel: () => {
      clearTimeout(timer);
      asked.removeEventListener('message', onMessage);
    },
  };
}

type PreviewState = { status: 'pending' } | { status: 'done'; result: PreviewResult } | { status: 'unavailable'; message: string };

/** Which pool emails the draft catches, matched in the worker as the account's server matches. */
function usePreview(draft: AutomationDraft, pool: Email[] | null, addressCriteria: 'address' | 'regex'): PreviewState {
  const [state, setState] = useState<PreviewState>({ status: 'pending' });
  const rule = useMemo<PreviewRule>(
    () => ({ subject: draft.subject.trim() || null, sender: draft.sender.trim() || null, inbox: draft.inbox.trim() || null, has_attachments: draft.has_attachments }),
    [draft.subject, draft.sender, draft.inbox, draft.has_attachments],
  );
  useEffect(() => {
    if (!pool) return;
    const targets = pool.map((email) => ({ subject: email.subject, sender: email.sender.email, inbox: email.inbox.email, attachmentCount: email.attachments.length }));
    const asked = askWorker(rule, targets, addressCriteria);
    let current = true;
    void asked.answer.then((answer) => {
      if (!current) return;
      if (!answer.ok) return setState({ status: 'unavailable', message: answer.message });
      const matches = pool.flatMap((email, i) => (answer.hits[i] ? [{ email, hits: answer.hits[i]! }] : []));
      setState({ status: 'done', result: { matches, total: pool.length } });
    });
    return () => {
      current = false;
      asked.cancel();
    };
  }, [rule, pool, addressCriteria]);
  return state;
}

const LABELS: Record<Criterion, string> = { subject: 'subject', sender: 'sender', inbox: 'inbox', has_attachments: 'attachments' };

/** Live: which recent emails the rule would catch, updated as the form changes. */
export function RulePreview({ draft }: { draft: AutomationDraft }) {
  const pool = useStore((s) => s.previewPool);
  const loadPool = useStore((s) => s.loadPreviewPool);
  const addressCriteria = useStore((s) => FLAVOR_RECORDS[activeFlavor(s.accounts)].addressCriteria);
  useEffect(() => {
    void loadPool();
  }, [loadPool]);
  const preview = usePreview(draft, pool, addressCriteria);
  const result = preview.status === 'done' ? preview.result : null;
  useEffect(() => {
    useStore.setState({
      previewCount: result ? { matches: result.matches.length, total: result.total } : null,
      previewMatches: result ? result.matches.slice(0, 20).map(({ email }) => ({ id: email.id, subject: email.subject })) : [],
    });
  }, [result]);
  if (preview.status === 'unavailable') {
    return (
      <section className="preview" aria-label="What this rule catches" aria-live="polite">
        <p className="hint" role="status">
          {preview.message}
        </p>
      </section>
    );
  }
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
