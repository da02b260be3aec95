import type { BridgeError, CompatReport, LinkCheck } from '../../../../shared/contract.ts';
import { preferredFormat, type BodyFormat, type Email, type EmailBody } from '../../../../shared/domain/email.ts';
import { parseHeaders } from '../../../../shared/domain/headers.ts';
import { findActionLink, findCode, htmlTextAndLinks, linksOfText, type EmailLink, type FoundCode } from '../../../../shared/domain/mail-insights.ts';
import { LruCache } from '../../../../shared/lru.ts';
import { canPrefetch } from '../../../../shared/domain/rate-budget.ts';
import { asBridgeError } from '../../bridge.ts';
import type { Slice } from '../../store.ts';

export interface MessageSlice {
  openId: string | null;
  email: Email | null;
  format: BodyFormat;
  body: EmailBody | null;
  messageLoading: boolean;
  messageError: BridgeError | null;
  /** Emails whose remote images the user chose to load. */
  remoteAllowed: Record<string, true>;
  openMessage: (id?: string) => Promise<void>;
  setFormat: (format: BodyFormat) => Promise<void>;
  /** Replaces a clipped body with the whole of it. */
  showWholeBody: () => Promise<void>;
  /** The Headers view: the raw message's header section, as a table. */
  headers: { name: string; value: string }[] | null;
  showHeaders: () => Promise<void>;
  /** The email's own inline images (cid:), by email id: loaded once when its HTML shows some. */
  inlineImages: Record<string, Record<string, string>>;
  loadInlineImages: (id: string) => Promise<void>;
  /** The attachment chooser (a, then a number). */
  attachmentChooserOpen: boolean;
  chooseAttachment: () => void;
  allowRemote: () => void;
  closeMessage: () => void;
  saveAttachment: (attachmentId: string) => Promise<void>;
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
  /** Shows the HTML source around `line`, highlighted (null: hides it). */
  showSourceLine: (line: number | null) => Promise<void>;
  /** Prints the email as shown (sanitized, remote content as chosen; Ctrl+P), or saves it as PDF (P). */
  printEmail: (pdf: boolean) => Promise<void>;
  /** The open email's raw message, saved as .eml (E). */
  saveRawMessage: () => Promise<void>;
  /** Copies the open email's code or main link (C, L), found by mail-insights.ts; a toast says what. */
  copyInsight: (what: 'code' | 'link') => Promise<void>;
  /**
   * Fetches the bodies of the emails either side of the open one, and sanitizes
   * their HTML while the app is idle, so j or k opens them in one update.
   * Only while the rate budget allows.
   */
  prefetchNext: () => void;
}

/**
 * The code and the main link of an email, from its body as shown: an HTML
 * body read in one linear pass without a DOM (a hostile body is never parsed
 * for this), a text body line by line.
 */
export function insightsOf(subject: string, body: EmailBody): { code: FoundCode | null; link: EmailLink | null } {
  if (body.format === 'html') {
    const { text, links } = htmlTextAndLinks(body.content);
    return { code: findCode(subject, text), link: findActionLink(links) };
  }
  return { code: findCode(subject, body.content), link: findActionLink(linksOfText(body.content)) };
}

export function formatAvailable(email: Pick<Email, 'has_html' | 'has_text'>, format: BodyFormat): boolean {
  return format === 'raw' || (format === 'html' ? email.has_html : email.has_text);
}

export const createMessageSlice: Slice<MessageSlice> = ({ call, prepareHtml, sanitizeHtml }) => (set, get) => {
  let messageSequence = 0;
  /**
   * Bodies fetched ahead for the emails next to the open one (prefetchNext), so
   * that opening one of them is a single store update with no bridge call.
   */
  const prepared = new LruCache<string, EmailBody>({ maxEntries: 6 });
  return {
    openId: null,
    email: null,
    format: 'html',
    headers: null,
    attachmentChooserOpen: false,
    inlineImages: {},

    loadInlineImages: async (id) => {
      if (get().inlineImages[id]) return;
      // Marked first, so one email asks once even while its HTML re-renders.
      set({ inlineImages: { ...get().inlineImages, [id]: {} } });
      try {
        const images = await call('getInlineImages', { id });
        // Only the last few emails keep theirs (data: URLs are big); main keeps the raw message anyway.
        const kept = Object.entries({ ...get().inlineImages, [id]: images }).slice(-8);
        set({ inlineImages: Object.fromEntries(kept) });
      } catch {
        // The images stay blank; the text is all there.
      }
    },
    body: null,
    messageLoading: false,
    messageError: null,
    remoteAllowed: {},

    openMessage: async (id = get().selectedId ?? undefined) => {
      if (!id) return;
      const now = get();
      // Enter on the email already open (or on its way) keeps it: nothing fetched again, nothing laid out again.
      if (id === now.openId && now.messageError === null && now.headers === null && (now.body !== null || now.messageLoading)) return;
      const sequence = ++messageSequence;
      // The header shows the email being opened at once (its list record), never the previous one.
      const known = get().list?.data.find((e) => e.id === id) ?? null;
      const opening = { openId: id, selectedId: id, headers: null, attachmentChooserOpen: false, messageError: null };
      const ready = known ? prepared.get(id) : undefined;
      if (known && ready && ready.format === preferredFormat(known)) {
        // Fetched ahead: the email shows in this one update.
        set({ ...opening, email: known, format: ready.format, body: ready, messageLoading: false });
        get().prefetchNext();
        // The JSON read is what marks it read on the server; a read email has nothing to learn.
        if (known.read === null) {
          void call('getEmail', { id }).then(
            (email) => {
              if (sequence === messageSequence) set({ email });
              get().patchListEmail(email);
            },
            () => undefined,
          );
        }
        return;
      }
      set({ ...opening, email: known, messageLoading: true, body: null });
      try {
        const { email, body } = await call('openEmail', { id });
        if (sequence !== messageSequence) return;
        set({ email, format: body.format, body, messageLoading: false });
        get().patchListEmail(email);
        get().clearOutage();
        get().prefetchNext();
      } catch (error) {
        if (sequence !== messageSequence) return;
        // A connection failure is told once, in the outage banner; the email opens by itself when the server is back.
        const shown = get().failed(error, 'message', () => {
          if (get().openId === id) void get().openMessage(id);
        });
        set({ messageLoading: false, messageError: shown });
      }
    },

    showHeaders: async () => {
      const { email } = get();
      if (!email) return;
      const sequence = ++messageSequence;
      set({ messageLoading: true, messageError: null });
      try {
        const raw = await call('getEmailBody', { id: email.id, format: 'raw' });
        if (sequence !== messageSequence) return;
        set({ headers: parseHeaders(raw.content), messageLoading: false });
      } catch (error) {
        if (sequence !== messageSequence) return;
        set({ messageLoading: false, messageError: asBridgeError(error) });
      }
    },

    chooseAttachment: () => {
      const { email } = get();
      if (!email) return;
      if (email.attachments.length === 0) {
        get().notify('This email has no attachments.');
      } else if (email.attachments.length === 1) {
        void get().saveAttachment(email.attachments[0]!.id);
      } else {
        set({ attachmentChooserOpen: true });
      }
    },

    setFormat: async (format) => {
      const { email } = get();
      if (!email || !formatAvailable(email, format)) return;
      const sequence = ++messageSequence;
      set({ format, headers: null, messageLoading: true, messageError: null });
      try {
        const body = await call('getEmailBody', { id: email.id, format });
        if (sequence !== messageSequence) return;
        set({ body, messageLoading: false });
      } catch (error) {
        if (sequence !== messageSequence) return;
        set({ messageLoading: false, messageError: asBridgeError(error) });
      }
    },

    showWholeBody: async () => {
      const { email, body } = get();
      if (!email || !body || body.total === undefined) return;
      const sequence = ++messageSequence;
      set({ messageLoading: true, messageError: null });
      try {
        const whole = await call('getEmailBody', { id: email.id, format: body.format, whole: true });
        if (sequence !== messageSequence) return;
        set({ body: whole, messageLoading: false });
      } catch (error) {
        if (sequence !== messageSequence) return;
        set({ messageLoading: false, messageError: asBridgeError(error) });
      }
    },

    allowRemote: () => {
      const id = get().openId;
      if (id) set({ remoteAllowed: { ...get().remoteAllowed, [id]: true } });
    },

    closeMessage: () => {
      messageSequence++;
      set({ openId: null, email: null, body: null, messageError: null, messageLoading: false });
    },

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

    prefetchNext: () => {
      const { list, openId, rateLimit } = get();
      if (!canPrefetch(rateLimit)) return;
      const rows = list?.data ?? [];
      const at = rows.findIndex((e) => e.id === openId);
      for (const neighbour of [rows[at + 1], rows[at - 1]]) {
        if (!neighbour || prepared.has(neighbour.id)) continue;
        void call('getEmailBody', { id: neighbour.id, format: preferredFormat(neighbour) }).then(
          (body) => {
            prepared.set(neighbour.id, body);
            if (body.format === 'html') prepareHtml(body.content);
          },
          () => undefined,
        );
      }
    },

    saveAttachment: async (attachmentId) => {
      const id = get().openId;
      if (!id) return;
      try {
        const { savedTo } = await call('saveAttachment', { emailId: id, attachmentId });
        if (savedTo) get().notify(`Saved to ${savedTo}`);
      } catch (error) {
        get().notify(asBridgeError(error));
      }
    },
  };
};
