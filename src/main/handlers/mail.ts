/** Reading and triage: the list and its watch, one email in its forms, deletes with undo, stars, files. */
import { preferredFormat, type EmailBody } from '../../shared/domain/email.ts';
import { FLAVOR_RECORDS } from '../../shared/flavors/index.ts';
import { readerHeaders, type ReaderHeaders } from '../../shared/domain/reader-headers.ts';
import { tagSourceLines } from '../../shared/domain/source-lines.ts';
import type { EmailListing, ServiceClient } from '../api/client.ts';
import { ServiceError } from '../api/errors.ts';
import { inlineImages } from '../api/inline-images.ts';
import { safeFileName } from '../file-names.ts';
import type { DesktopPort, HandlerTable, KeptPort, MailPort } from './context.ts';
import { DEFAULT_POLL_MS, MailPoller } from '../poller.ts';
import { realTimer } from '../timer.ts';
import type { HandlerContext } from './context.ts';

export type MailHandlers = Pick<
  HandlerTable,
  | 'listEmails'
  | 'watchList'
  | 'getEmail'
  | 'getEmailBody'
  | 'openEmail'
  | 'deleteEmail'
  | 'deleteAllEmails'
  | 'undoDelete'
  | 'setFavorite'
  | 'saveAttachment'
  | 'saveRawMessage'
  | 'getInlineImages'
  | 'getSnapshot'
>;

/** The key an account's snapshot is kept under: its id, or the demo's. */
const snapshotKey = (activeId: string | null) => activeId ?? 'demo';

/** The poller that watches the list for new mail (the window visible, the rate budget allowing). */
export function mailPoller(
  context: HandlerContext,
  deps: Pick<MailPort, 'pollIntervalMs'> & Pick<DesktopPort, 'setBadgeCount'> & KeptPort,
  onNewMail: (emails: EmailListing['data']) => void,
): MailPoller {
  const { accounts, session, withClient, emit } = context;
  return new MailPoller({
    intervalMs: deps.pollIntervalMs ?? DEFAULT_POLL_MS,
    fetchPage: (query) => withClient((c) => c.listEmails(query, { fresh: true })),
    fetchUnread: () => withClient(async (c) => (await c.listEmails({ unread: true, limit: 1 }, { fresh: true })).meta.total),
    rate: () => session.rateLimit,
    onPage: (query, page) => {
      emit('listPolled', { query, page });
      deps.snapshots?.remember(snapshotKey(accounts.activeId), query, page);
    },
    // The tester's loop notifies, with the newest email's code (tester-loop.ts).
    onNewMail,
    onUnread: (count) => deps.setBadgeCount?.(count),
    setTimer: realTimer,
    now: Date.now,
  });
}

export function mailHandlers(context: HandlerContext, poller: MailPoller, deps: Pick<DesktopPort, 'saveFile'> & KeptPort): MailHandlers {
  const { accounts, session, withClient } = context;
  // What the app wrote (Date, From, To…) rides on the body: from the app's own services always (they cost
  // nothing), from a remote server only when its raw message is here already: the rate budget is the user's.
  const sentHeaders = (c: ServiceClient, id: string): Promise<ReaderHeaders | null> =>
    c.headerSection(id, { fetch: session.isLocal }).then(
      (section) => (section === null ? null : readerHeaders(section)),
      () => null,
    );
  const attach = (body: EmailBody, sent: ReaderHeaders | null): EmailBody => (sent ? { ...body, sent } : body);
  const withSent = async (c: ServiceClient, id: string, body: EmailBody) => attach(body, await sentHeaders(c, id));

  return {
    listEmails: async ({ fresh, ...query }) => {
      if (fresh) poller.refreshed();
      const page = await withClient((c) => c.listEmails(query, { view: 'list', fresh }));
      poller.noteListed(query, page.data.map((email) => email.id));
      deps.snapshots?.remember(snapshotKey(accounts.activeId), query, page);
      return page;
    },
    getSnapshot: async () => {
      const key = snapshotKey(accounts.activeId);
      const account = accounts.summaries().find((a) => a.id === key);
      // An account whose token is gone shows nothing of its mail until it connects again.
      if (account && !account.hasToken && FLAVOR_RECORDS[account.flavor].auth === 'bearer') {
        deps.snapshots?.forget(key);
        return null;
      }
      return deps.snapshots?.get(key) ?? null;
    },
    watchList: async ({ query, visible }) => {
      poller.watch(query, visible);
      // The app's own services cost nothing to ask: mail that landed between the list's load and this watch shows now.
      if (query !== null && session.isLocal) poller.arrived();
      return null;
    },
    getEmail: ({ id }) => withClient((c) => c.getEmail(id, { view: 'message' })),
    getEmailBody: ({ id, format, whole, sourceLines }) =>
      withClient(async (c) => {
        const body = await (whole ? c.getEmailBody(id, format) : c.readerBody(id, format));
        // Each element tagged with its source line (the accessibility check): done here, off the UI thread.
        if (!(sourceLines && format === 'html')) return withSent(c, id, body);
        const tagged = tagSourceLines(body.content);
        return withSent(c, id, { ...body, content: tagged, taggedChars: tagged.length - body.content.length });
      }),
    openEmail: ({ id }) =>
      withClient(async (c) => {
        // The list told main which formats it has: record and body are asked for together.
        const known = c.knownEmail(id);
        if (known && known.read === null) {
          // Reading comes first: the body now; the JSON read that marks it read on the server is
          // background work, queued within the rate budget (never dropped for it), sent when it allows.
          const [body, sent] = await Promise.all([c.readerBody(id, preferredFormat(known)), sentHeaders(c, id)]);
          void c.getEmail(id).catch(() => undefined);
          return { email: { ...known, read: new Date().toISOString() }, body: attach(body, sent) };
        }
        const early = known ? c.readerBody(id, preferredFormat(known)).catch(() => null) : null;
        const sent = sentHeaders(c, id);
        const email = await c.getEmail(id, { view: 'message' });
        const format = preferredFormat(email);
        const earlyBody = await early;
        const body = earlyBody?.format === format ? earlyBody : await c.readerBody(id, format);
        return { email, body: attach(body, await sent) };
      }),
    deleteEmail: ({ id, undoMs }) => session.deleteSoon('email', id, undoMs),
    deleteAllEmails: async ({ undoMs }) => {
      const through = new Date().toISOString();
      await session.deleteSoon('all', through, undoMs);
      return { through };
    },
    undoDelete: async ({ id, kind }) => ({ undone: await session.undo(kind ?? 'email', id) }),
    setFavorite: ({ id, favorite }) => withClient((c) => c.setFavorite(id, favorite)).then(() => null),
    saveAttachment: ({ emailId, attachmentId }) =>
      withClient(async (c) => {
        const email = await c.getEmail(emailId);
        const attachment = email.attachments.find((a) => a.id === attachmentId);
        if (!attachment) throw new ServiceError('not-found', 'That attachment is not part of this email.');
        const { bytes } = await c.getAttachment(emailId, attachmentId);
        return { savedTo: await deps.saveFile(safeFileName(attachment.file_name), bytes) };
      }),
    saveRawMessage: ({ id }) =>
      withClient(async (c) => {
        const email = c.knownEmail(id) ?? (await c.getEmail(id));
        // The stored bytes as they are (rawMessage): what any mail program opens as the email.
        return { savedTo: await deps.saveFile(safeFileName(`${email.subject || 'email'}.eml`), await c.rawMessage(id)) };
      }),
    getInlineImages: ({ id }) => withClient(async (c) => inlineImages((await c.getEmailBody(id, 'raw')).content)),
  };
}
