/**
 * The tester's bench (issue 23): what a QA engineer checks in the open email
 * beyond reading it. Preview widths and a client's dark mode (w, D), the
 * checks main runs on request (checks.ts: links, HTML compatibility, spam,
 * accessibility, compare), the code and main link (C, L), save as .eml (E),
 * print and PDF (Ctrl+P, P).
 */
import { asBridgeError, BridgeFailure } from '../../bridge.ts';
import { benchCheck, type CheckId, type CheckReports, type CheckRun } from './checks.ts';
import type { Slice } from '../../store.ts';

export interface QaSlice {
  /** The email frame's width and dark mode, as a phone, a tablet or a client in dark mode shows it (w, D). */
  previewWidth: 'full' | 'tablet' | 'phone';
  previewDark: boolean;
  cyclePreviewWidth: () => void;
  togglePreviewDark: () => void;
  /** Each check's run on the email it was asked for (checks.ts): running, its report, or why not. */
  checks: { [I in CheckId]?: CheckRun<CheckReports[I]> };
  /** Runs a check on the open email, as its descriptor says (V, H, S, A, B). */
  runCheck: (id: CheckId) => Promise<void>;
  /** Closes a check's report (Esc, its close button). */
  closeCheck: (id: CheckId) => void;
  /** The email picked by hand to compare others with (b); null: each compares with the one before of its kind. */
  compareBase: { id: string; subject: string } | null;
  pickCompareBase: () => void;
  /** Shows the HTML source around `line` in a check's report, highlighted (null: hides it). */
  showSourceLine: (line: number | null, check: CheckId) => Promise<void>;
  /** Prints the email as shown (sanitized, remote content as chosen; Ctrl+P), or saves it as PDF (P). */
  printEmail: (pdf: boolean) => Promise<void>;
  /** The open email's raw message, saved as .eml (E). */
  saveRawMessage: () => Promise<void>;
  /** Copies the open email's code or main link (C, L), found by mail-insights.ts; a toast says what. */
  copyInsight: (what: 'code' | 'link') => Promise<void>;
}

export const createQaSlice: Slice<QaSlice> = ({ call, sanitizeHtml }) => (set, get) => ({
  checks: {},
  runCheck: async (check) => {
    const descriptor = benchCheck(check);
    const { openId: emailId, email } = get();
    if (!emailId || !email) return;
    if (descriptor.needsHtml && !email.has_html) {
      get().notify('This email has no HTML part to check.');
      return;
    }
    const started: CheckRun<unknown> = { id: emailId, running: true, report: null, error: null, line: null, source: null };
    const put = (run: CheckRun<unknown> | null) => set({ checks: { ...get().checks, [check]: run ?? undefined } });
    const current = () => get().checks[check];
    put(started);
    try {
      const report = await descriptor.run({ emailId, email, state: get, call, sanitizeHtml, notify: (text) => get().notify(text) });
      // A later run (or another email's) owns the panel now.
      if (current() !== started) return;
      put(report === null ? null : { ...started, running: false, report });
    } catch (error) {
      if (current() !== started) return;
      if (descriptor.errorInPanel) put({ ...started, running: false, error: asBridgeError(error) });
      else {
        put(null);
        get().notify(error instanceof BridgeFailure || !(error instanceof Error) ? asBridgeError(error) : error.message);
      }
    }
  },
  closeCheck: (check) => set({ checks: { ...get().checks, [check]: undefined } }),
  showSourceLine: async (line, check) => {
    const shown = get().checks[check];
    if (!shown || shown.running) return;
    if (line === null || shown.source) {
      set({ checks: { ...get().checks, [check]: { ...shown, line } } });
      return;
    }
    try {
      // The whole HTML as the check read it, once, for its line numbers.
      const whole = await call('getEmailBody', { id: shown.id, format: 'html', whole: true });
      const now = get().checks[check];
      if (now?.id === shown.id) set({ checks: { ...get().checks, [check]: { ...now, line, source: whole.content.split(/\r?\n/) } } });
    } catch (error) {
      get().notify(asBridgeError(error));
    }
  },
  compareBase: null,
  pickCompareBase: () => {
    const { openId: id, email } = get();
    if (!id || !email) return;
    set({ compareBase: { id, subject: email.subject } });
    get().notify(`Picked “${email.subject || '(no subject)'}” to compare with: open another email and press B.`);
  },
  printEmail: async (pdf) => {
    const { openId: id, email, body, remoteAllowed, inlineImages } = get();
    if (!id || !email) return;
    const remote = Boolean(remoteAllowed[id]);
    try {
      // The body as the reader shows it: the HTML sanitized as in the frame, else the text.
      let html: string | null = null;
      let text: string | null = null;
      if (email.has_html) {
        // What the reader shows: a clipped body prints clipped, as on screen (Show the whole message first for all of it).
        const shown = body?.format === 'html' ? body : await call('getEmailBody', { id, format: 'html' });
        if (shown.total !== undefined) get().notify(`Printing the part shown; show the whole message first to print all of it.`);
        html = await sanitizeHtml(shown.content, { allowRemote: remote, ...(inlineImages[id] ? { inline: inlineImages[id] } : {}) });
        if (html === null) {
          get().notify('This email’s HTML is too complex to show, so it is not printed; its text is.', { tone: 'error' });
          if (!email.has_text) return;
        }
      }
      if (html === null) text = email.has_text ? (body?.format === 'text' ? body : await call('getEmailBody', { id, format: 'text' })).content : '';
      const done = await call('printEmail', { id, html, text, remote, pdf });
      if (done.savedTo) get().notify(`Saved to ${done.savedTo}`);
      else if (done.printed) get().notify('Sent to the printer.');
    } catch (error) {
      get().notify(asBridgeError(error));
    }
  },
  previewWidth: 'full',
  previewDark: false,
  cyclePreviewWidth: () => {
    const order = ['full', 'phone', 'tablet'] as const;
    set({ previewWidth: order[(order.indexOf(get().previewWidth) + 1) % order.length]! });
  },
  togglePreviewDark: () => set({ previewDark: !get().previewDark }),

  saveRawMessage: async () => {
    const id = get().openId;
    if (!id) return;
    try {
      const { savedTo } = await call('saveRawMessage', { id });
      if (savedTo) get().notify(`Saved to ${savedTo}`);
    } catch (error) {
      get().notify(asBridgeError(error));
    }
  },

  copyInsight: async (what) => {
    const { email, body } = get();
    if (!email || !body) return;
    const { insightsOf } = await import('../../../../shared/domain/mail-insights.ts');
    const found = insightsOf(email.subject, body);
    const text = what === 'code' ? found.code?.code : found.link?.url;
    if (!text) {
      get().notify(what === 'code' ? 'No verification code found in this email.' : 'No main link found in this email.');
      return;
    }
    await call('copyText', { text });
    get().notify(what === 'code' ? `Copied the code ${text}.` : `Copied the link ${text}.`);
  },
});
