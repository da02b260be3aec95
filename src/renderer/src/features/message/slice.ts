import type { BridgeError } from '../../../../shared/contract.ts';
import { preferredFormat, type BodyFormat } from '../../../../shared/domain/body-format.ts';
import type { Email, EmailBody } from '../../../../shared/domain/email.ts';
import { parseHeaders } from '../../../../shared/domain/headers.ts';
import type { ReaderHeaders } from '../../../../shared/domain/reader-headers.ts';
import { LruCache } from '../../../../shared/lru.ts';
import { canPrefetch } from '../../../../shared/domain/rate-budget.ts';
import { asBridgeError } from '../../bridge.ts';
import type { Slice } from '../../store.ts';
import { linkQuestion } from './link-check.ts';

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
  /** What the sending app wrote (From, To, Date…), decoded, once main has it: the header shows it over the record's envelope. */
  readerHeaders: { id: string; headers: ReaderHeaders } | null;
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
  /**
   * Opens a link of the email in the system browser. One whose text shows one
   * site and goes to another, or that goes to a name in another alphabet, asks first.
   */
  openLink: (text: string, href: string) => void;
  /**
   * Fetches the bodies of the emails either side of the open one, and sanitizes
   * their HTML while the app is idle, so j or k opens them in one update.
   * Only while the rate budget allows.
   */
  prefetchNext: () => void;
}

export function formatAvailable(email: Pick<Email, 'has_html' | 'has_text'>, format: BodyFormat): boolean {
  return format === 'raw' || (format === 'html' ? email.has_html : email.has_text);
}

export const createMessageSlice: Slice<MessageSlice> = ({ call, confirm, prepareHtml }) => (set, get) => {
  let messageSequence = 0;
  /**
   * Bodies fetched ahead for the emails next to the open one (prefetchNext), so
   * that opening one of them is a single store update with no bridge call.
   */
  const prepared = new LruCache<string, EmailBody>({ maxEntries: 6 });
  /** A body of the open email that carries what the app wrote: kept for every view of it (text, raw, headers). */
  const sentOf = (id: string, body: EmailBody) => {
    const kept = get().readerHeaders;
    if (body.sent) return { readerHeaders: { id, headers: body.sent } };
    return kept?.id === id ? {} : { readerHeaders: null };
  };
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

    readerHeaders: null,

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
        set({ ...opening, ...sentOf(id, ready), email: known, format: ready.format, body: ready, messageLoading: false });
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
        set({ ...sentOf(id, body), email, format: body.format, body, messageLoading: false });
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
        // The raw message is in main now: what the app wrote comes with it, from a remote server too.
        set({ ...sentOf(email.id, raw), headers: parseHeaders(raw.content), messageLoading: false });
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
        set({ ...sentOf(email.id, body), body, messageLoading: false });
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
        set({ ...sentOf(email.id, whole), body: whole, messageLoading: false });
      } catch (error) {
        if (sequence !== messageSequence) return;
        set({ messageLoading: false, messageError: asBridgeError(error) });
      }
    },

    allowRemote: () => {
      const id = get().openId;
      if (id) set({ remoteAllowed: { ...get().remoteAllowed, [id]: true } });
    },

    openLink: (text, href) => {
      const question = linkQuestion(text, href);
      if (question && !confirm(question)) return;
      void call('openExternal', { url: href }).catch((error: unknown) => get().notify(asBridgeError(error)));
    },

    closeMessage: () => {
      messageSequence++;
      set({ openId: null, email: null, body: null, messageError: null, messageLoading: false });
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
