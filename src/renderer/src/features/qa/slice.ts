/**
 * The tester's bench (issue 23): what a QA engineer checks in the open email
 * beyond reading it. Preview widths and a client's dark mode (w, D), the link
 * check (V) and the HTML compatibility check (H) done by main on request, the
 * code and main link (C, L), save as .eml (E), print and PDF (Ctrl+P, P).
 */
import type { AccessibilityReport, BridgeError, CompareReport, CompatReport, LinkCheck, SpamReport } from '../../../../shared/contract.ts';
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
  /** The open email checked by axe-core as the reader shows it, light and dark (A); `line`: the source line shown. */
  accessibility: { id: string; running: boolean; report: AccessibilityReport | null; line: number | null; source: string[] | null } | null;
  checkAccessibility: () => Promise<void>;
  /** The email picked by hand to compare others with (b); null: each compares with the one before of its kind. */
  compareBase: { id: string; subject: string } | null;
  pickCompareBase: () => void;
  /** The open email compared with the one before of its kind, or with the picked one (B). */
  compare: { id: string; running: boolean; report: CompareReport | null } | null;
  compareWithPrevious: () => Promise<void>;
  closeCompare: () => void;
  /** Shows the HTML source around `line` in a panel's report, highlighted (null: hides it). */
  showSourceLine: (line: number | null, panel?: 'compat' | 'accessibility') => Promise<void>;
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
  showSourceLine: async (line, panel = 'compat') => {
    const shown = get()[panel];
    if (!shown || shown.running) return;
    if (line === null || shown.source) {
      set({ [panel]: { ...shown, line } });
      return;
    }
    try {
      // The whole HTML as the check read it, once, for its line numbers.
      const whole = await call('getEmailBody', { id: shown.id, format: 'html', whole: true });
      const now = get()[panel];
      if (now?.id === shown.id) set({ [panel]: { ...now, line, source: whole.content.split(/\r?\n/) } });
    } catch (error) {
      get().notify(asBridgeError(error));
    }
  },
  accessibility: null,
  checkAccessibility: async () => {
    const { openId: id, email, remoteAllowed, inlineImages } = get();
    if (!id || !email) return;
    if (!email.has_html) {
      get().notify('This email has no HTML part to check.');
      return;
    }
    set({ accessibility: { id, running: true, report: null, line: null, source: null } });
    try {
      // The whole HTML, each element tagged with its source line by main, sanitized as the frame has it.
      // As the reader shows it: a clipped body is checked clipped, as it prints (Show the whole message first for all of it).
      const shown = get().body;
      const whole = shown?.format === 'html' && shown.total === undefined;
      const body = await call('getEmailBody', { id, format: 'html', whole, sourceLines: true });
      if (body.total !== undefined) get().notify('Checking the part shown; show the whole message first to check all of it.');
      const tagged = body.content;
      const remote = Boolean(remoteAllowed[id]);
      const clean = await sanitizeHtml(tagged, {
        allowRemote: remote,
        sourceLines: true,
        taggedChars: body.taggedChars ?? 0,
        ...(inlineImages[id] ? { inline: inlineImages[id] } : {}),
      });
      if (clean === null) throw new Error('This email’s HTML is too complex to show, so it cannot be checked.');
      const { inspectionDocument, rootOf } = await import('./inspection-document.ts');
      const root = rootOf(tagged);
      const report = await call('checkAccessibility', {
        id,
        light: inspectionDocument({ clean, dark: false, remote, ...root }),
        dark: inspectionDocument({ clean, dark: true, remote, ...root }),
      });
      if (get().accessibility?.id === id) set({ accessibility: { id, running: false, report, line: null, source: null } });
    } catch (error) {
      if (get().accessibility?.id === id) set({ accessibility: null });
      get().notify(error instanceof Error && !('kind' in error) ? error.message : asBridgeError(error));
    }
  },
  compareBase: null,
  pickCompareBase: () => {
    const { openId: id, email } = get();
    if (!id || !email) return;
    set({ compareBase: { id, subject: email.subject } });
    get().notify(`Picked “${email.subject || '(no subject)'}” to compare with: open another email and press B.`);
  },
  compare: null,
  closeCompare: () => set({ compare: null }),
  compareWithPrevious: async () => {
    const { openId: id, email, compareBase } = get();
    if (!id || !email) return;
    set({ compare: { id, running: true, report: null } });
    try {
      const baseId = compareBase && compareBase.id !== id ? compareBase.id : ((await call('previousOfKind', { id }))?.id ?? null);
      if (baseId === null) {
        if (get().compare?.id === id) set({ compare: null });
        get().notify('No earlier email of this kind (same sender, a subject alike). Press b on the one to compare with, then B here.');
        return;
      }
      // Both renderings as the reader shows them, sanitized here; main renders and diffs them.
      const base = await call('getEmail', { id: baseId });
      let documents: { base: string; current: string } | null = null;
      if (email.has_html && base.has_html) {
        const { inspectionDocument } = await import('./inspection-document.ts');
        const shown = async (emailId: string) => {
          const remote = Boolean(get().remoteAllowed[emailId]);
          // The first screens are what a rendering shows: the reader's clipped body will do for a long one.
          const html = (await call('getEmailBody', { id: emailId, format: 'html' })).content;
          const clean = await sanitizeHtml(html, { allowRemote: remote });
          return clean === null ? null : inspectionDocument({ clean, dark: get().previewDark, remote });
        };
        const [baseDocument, currentDocument] = [await shown(baseId), await shown(id)];
        if (baseDocument !== null && currentDocument !== null) documents = { base: baseDocument, current: currentDocument };
      }
      const report = await call('compareEmails', { id, baseId, documents, width: 640 });
      if (get().compare?.id === id) set({ compare: { id, running: false, report } });
    } catch (error) {
      if (get().compare?.id === id) set({ compare: null });
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
