/**
 * The tester's bench (issue 23): what a QA engineer checks in the open email
 * beyond reading it. Preview widths and a client's dark mode (w, D), the link
 * check (V) and the HTML compatibility check (H) done by main on request, the
 * code and main link (C, L), save as .eml (E), print and PDF (Ctrl+P, P).
 */
import type { BridgeError, CompatReport, LinkCheck, SpamReport } from '../../../../shared/contract.ts';
import { insightsOf } from '../../../../shared/domain/mail-insights.ts';
import { asBridgeError } from '../../bridge.ts';
import type { Slice } from '../../store.ts';

export interface QaSlice {
  /** The email frame's width and dark mode, as a phone, a tablet or a client in dark mode shows it (w, D). */
  previewWidth: 'full' | 'tablet' | 'phone';
  previewDark: boolean;
  cyclePreviewWidth: () => void;
  togglePreviewDark: () => void;
  /** The open email's links and images as main found them when asked (V); null before. */
  linkCheck: { id: string; running: boolean; links: LinkCheck[] } | null;
  checkLinks: () => Promise<void>;
  /** The open email's HTML checked against caniemail.com's data by main (H); `line`: the source line shown. */
  compat: { id: string; running: boolean; report: CompatReport | null; line: number | null; source: string[] | null } | null;
  checkCompatibility: () => Promise<void>;
  /** The open email scored by SpamAssassin's spamd, as main asked it (S); `error`: why there is no score. */
  spam: { id: string; running: boolean; report: SpamReport | null; error: BridgeError | null } | null;
  checkSpam: () => Promise<void>;
  /** Shows the HTML source around `line`, highlighted (null: hides it). */
  showSourceLine: (line: number | null) => Promise<void>;
  /** Prints the email as shown (sanitized, remote content as chosen; Ctrl+P), or saves it as PDF (P). */
  printEmail: (pdf: boolean) => Promise<void>;
  /** The open email's raw message, saved as .eml (E). */
  saveRawMessage: () => Promise<void>;
  /** Copies the open email's code or main link (C, L), found by mail-insights.ts; a toast says what. */
  copyInsight: (what: 'code' | 'link') => Promise<void>;
}

export const createQaSlice: Slice<QaSlice> = ({ call, sanitizeHtml }) => (set, get) => ({
  linkCheck: null,
  checkLinks: async () => {
    const id = get().openId;
    if (!id) return;
    set({ linkCheck: { id, running: true, links: [] } });
    try {
      const { links } = await call('checkLinks', { id });
      if (get().linkCheck?.id === id) set({ linkCheck: { id, running: false, links } });
    } catch (error) {
      if (get().linkCheck?.id === id) set({ linkCheck: null });
      get().notify(asBridgeError(error));
    }
  },
  compat: null,
  checkCompatibility: async () => {
    const id = get().openId;
    if (!id) return;
    if (!get().email?.has_html) {
      get().notify('This email has no HTML part to check.');
      return;
    }
    set({ compat: { id, running: true, report: null, line: null, source: null } });
    try {
      const report = await call('checkCompatibility', { id });
      if (get().compat?.id === id) set({ compat: { id, running: false, report, line: null, source: null } });
    } catch (error) {
      if (get().compat?.id === id) set({ compat: null });
      get().notify(asBridgeError(error));
    }
  },
  spam: null,
  checkSpam: async () => {
    const id = get().openId;
    if (!id) return;
    set({ spam: { id, running: true, report: null, error: null } });
    try {
      const report = await call('checkSpam', { id });
      if (get().spam?.id === id) set({ spam: { id, running: false, report, error: null } });
    } catch (error) {
      // Said in place, in the panel: no spamd, spamd off, a message too big.
      if (get().spam?.id === id) set({ spam: { id, running: false, report: null, error: asBridgeError(error) } });
    }
  },
  showSourceLine: async (line) => {
    const compat = get().compat;
    if (!compat || compat.running) return;
    if (line === null || compat.source) {
      set({ compat: { ...compat, line } });
      return;
    }
    try {
      // The whole HTML as the check read it, once, for its line numbers.
      const whole = await call('getEmailBody', { id: compat.id, format: 'html', whole: true });
      const now = get().compat;
      if (now?.id === compat.id) set({ compat: { ...now, line, source: whole.content.split(/\r?\n/) } });
    } catch (error) {
      get().notify(asBridgeError(error));
    }
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
