/**
 * The tester's bench checks, one descriptor each: its key and title (the
 * registry makes its command), how it runs for the open email (main does the
 * work), and what its report is. The slice runs any of them the one way
 * (running, report, error, the source line shown), the reader shows each
 * one's panel (panels.tsx, keyed by the same ids), Esc closes their reports,
 * and the help and the palette list their commands. Adding a check: a
 * descriptor here, its runner in main, and its panel.
 */
import type { AccessibilityReport, Args, BridgeError, CompareReport, CompatReport, LinkCheck, Method, Results, SpamReport } from '../../../../shared/contract.ts';
import type { SanitizeOptions } from '../message/sanitize.ts';

/** What each check reports. */
export interface CheckReports {
  links: LinkCheck[];
  compat: CompatReport;
  spam: SpamReport;
  accessibility: AccessibilityReport;
  compare: CompareReport;
}
export type CheckId = keyof CheckReports;

/** One check's run on one email, as the slice keeps it. */
export interface CheckRun<R> {
  /** The email checked. */
  id: string;
  running: boolean;
  report: R | null;
  /** Why there is no report, said in the panel (checks with `errorInPanel`). */
  error: BridgeError | null;
  /** The source line a finding points at, shown (checks with `sourceLines`), and the HTML it is read from. */
  line: number | null;
  source: string[] | null;
}

/** What a runner may use: the open email, the store, main's calls, the sanitizer, and a notice. */
export interface CheckContext {
  emailId: string;
  email: { subject: string; has_html: boolean };
  state: () => { body: { format: string; total?: number } | null; remoteAllowed: Record<string, boolean>; inlineImages: Record<string, Record<string, string>>; previewDark: boolean; compareBase: { id: string } | null };
  call: <M extends Method>(method: M, arg: Args[M]) => Promise<Results[M]>;
  sanitizeHtml: (html: string, options: SanitizeOptions) => Promise<string | null>;
  notify: (text: string) => void;
}

export interface BenchCheck<I extends CheckId = CheckId> {
  id: I;
  /** Its command in the registry: the key, and the title the help and the palette show. */
  command: { id: string; key: string; title: string };
  /** The reader's words for its panel, when that fails to draw. */
  area: string;
  /** It reads the email's HTML: an email without one is said, not checked. */
  needsHtml?: boolean;
  /** Its failures are said in its panel (spam: no spamd, spamd off), not in a notice. */
  errorInPanel?: boolean;
  /** Its findings point at source lines. */
  sourceLines?: boolean;
  /** Runs it for the open email: the report, or null when there is nothing to show (a notice said why). */
  run: (context: CheckContext) => Promise<CheckReports[I] | null>;
}

const links: BenchCheck<'links'> = {
  id: 'links',
  command: { id: 'qa.check-links', key: 'V', title: 'Check every link and image (asks the web: only when you press it)' },
  area: 'The link check',
  run: async ({ emailId, call }) => (await call('checkLinks', { id: emailId })).links,
};

const compat: BenchCheck<'compat'> = {
  id: 'compat',
  command: { id: 'qa.check-html', key: 'H', title: 'Check the HTML’s compatibility with email clients (caniemail.com)' },
  area: 'The compatibility check',
  needsHtml: true,
  sourceLines: true,
  run: ({ emailId, call }) => call('checkCompatibility', { id: emailId }),
};

const spam: BenchCheck<'spam'> = {
  id: 'spam',
  command: { id: 'qa.spam-score', key: 'S', title: 'Spam score: SpamAssassin’s verdict and each rule that fired (the spamd set in Settings)' },
  area: 'The spam score',
  errorInPanel: true,
  run: ({ emailId, call }) => call('checkSpam', { id: emailId }),
};

const accessibility: BenchCheck<'accessibility'> = {
  id: 'accessibility',
  command: { id: 'qa.check-accessibility', key: 'A', title: 'Check accessibility with axe-core: alt text, lang, contrast light and dark, headings, tables, link text' },
  area: 'The accessibility check',
  needsHtml: true,
  sourceLines: true,
  run: async ({ emailId, state, call, sanitizeHtml, notify }) => {
    // The whole HTML, each element tagged with its source line by main, sanitized as the frame has it.
    // As the reader shows it: a clipped body is checked clipped, as it prints (Show the whole message first for all of it).
    const shown = state().body;
    const whole = shown?.format === 'html' && shown.total === undefined;
    const body = await call('getEmailBody', { id: emailId, format: 'html', whole, sourceLines: true });
    if (body.total !== undefined) notify('Checking the part shown; show the whole message first to check all of it.');
    const tagged = body.content;
    const remote = Boolean(state().remoteAllowed[emailId]);
    const inline = state().inlineImages[emailId];
    const clean = await sanitizeHtml(tagged, { allowRemote: remote, sourceLines: true, taggedChars: body.taggedChars ?? 0, ...(inline ? { inline } : {}) });
    if (clean === null) throw new Error('This email’s HTML is too complex to show, so it cannot be checked.');
    const { inspectionDocument, rootOf } = await import('./inspection-document.ts');
    const root = rootOf(tagged);
    return call('checkAccessibility', {
      id: emailId,
      light: inspectionDocument({ clean, dark: false, remote, ...root }),
      dark: inspectionDocument({ clean, dark: true, remote, ...root }),
    });
  },
};

const compare: BenchCheck<'compare'> = {
  id: 'compare',
  command: { id: 'qa.compare', key: 'B', title: 'Compare with the previous one of its kind (or the one picked with b): text, headers, links, rendering' },
  area: 'The comparison',
  run: async ({ emailId, email, state, call, sanitizeHtml, notify }) => {
    const picked = state().compareBase;
    const baseId = picked && picked.id !== emailId ? picked.id : ((await call('previousOfKind', { id: emailId }))?.id ?? null);
    if (baseId === null) {
      notify('No earlier email of this kind (same sender, a subject alike). Press b on the one to compare with, then B here.');
      return null;
    }
    // Both renderings as the reader shows them, sanitized here; main renders and diffs them.
    const base = await call('getEmail', { id: baseId });
    let documents: { base: string; current: string } | null = null;
    if (email.has_html && base.has_html) {
      const { inspectionDocument } = await import('./inspection-document.ts');
      const rendered = async (id: string) => {
        const remote = Boolean(state().remoteAllowed[id]);
        // The first screens are what a rendering shows: the reader's clipped body will do for a long one.
        const html = (await call('getEmailBody', { id, format: 'html' })).content;
        const clean = await sanitizeHtml(html, { allowRemote: remote });
        return clean === null ? null : inspectionDocument({ clean, dark: state().previewDark, remote });
      };
      const [baseDocument, currentDocument] = [await rendered(baseId), await rendered(emailId)];
      if (baseDocument !== null && currentDocument !== null) documents = { base: baseDocument, current: currentDocument };
    }
    return call('compareEmails', { id: emailId, baseId, documents, width: 640 });
  },
};

/** In the order the reader shows their reports; Esc closes the last one shown first. */
export const BENCH_CHECKS: readonly BenchCheck[] = [links, compat, spam, accessibility, compare] as readonly BenchCheck[];
export const benchCheck = (id: CheckId): BenchCheck => BENCH_CHECKS.find((check) => check.id === id)!;
