/**
 * The contract implemented on the API client and the account store. No
 * electron import: Electron's IPC and the test host register this same table.
 */
import {
  contract,
  type AccountsState,
  type Envelope,
  type EventName,
  type Events,
  type Method,
  type ParsedArgs,
  type Results,
} from '../shared/contract.ts';
import { validateAutomationInput } from '../shared/domain/automation.ts';
import { preferredFormat } from '../shared/domain/email.ts';
import type { ServiceClient, Connection } from './api/client.ts';
import { redact, ServiceError, toBridgeError } from './api/errors.ts';
import type { HttpOptions } from './api/http.ts';
import { DEFAULT_FLAVOR } from '../shared/flavors/index.ts';
import type { AccountManager } from './account/accounts.ts';
import { AccountSession } from './account-session.ts';
import { privateTargetQuestion, saveAccount, testConnection, type ConsentQuestion } from './connect.ts';
import { inlineImages } from './api/inline-images.ts';
import { payloadFor, sendPayload } from './api/payload.ts';
import { checkLinks, urlsOf } from './api/link-check.ts';
import { runCompat } from './qa/run-compat.ts';
import { printDocument } from './qa/print-document.ts';
import { safeFileName } from './file-names.ts';
import { DEFAULT_POLL_MS, MailPoller } from './poller.ts';
import { normaliseExternalUrl } from './security.ts';

export type HandlerTable = { [M in Method]: (arg: ParsedArgs[M]) => Promise<Results[M]> };

export interface HandlerDeps {
  accounts: AccountManager;
  /** Starts (once) the bundled reference service and answers how to reach it. */
  startDemo: () => Promise<Connection>;
  openExternal: (url: string) => Promise<void>;
  /** Asks the user where to save; answers the path, or null when cancelled. */
  saveFile: (suggestedName: string, bytes: Buffer) => Promise<string | null>;
  emit: <E extends EventName>(event: E, payload: Events[E]) => void;
  /**
   * Asks the user in main's own (native) dialog; true only on an explicit yes.
   * Consent that weakens token custody is never taken from the renderer's word.
   */
  confirm: (question: ConsentQuestion) => Promise<boolean>;
  app: { name: string; version: string; platform: string };
  http?: Partial<HttpOptions>;
  /** Quits and installs a downloaded update (absent where updates are off). */
  installUpdate?: () => void;
  /** The journal of deletes in their undo window, so that quitting, a crash or the OS ending the app loses none. */
  pendingDeletesPath?: string;
  /** Timers for the undo windows (tests hand in their own clock). */
  setTimer?: (run: () => void, ms: number) => () => void;
  /** How often main polls the watched list (default 30 s). */
  pollIntervalMs?: number;
  /** A desktop notification (Electron's Notification), when the user turned them on. */
  notify?: (title: string, body: string) => void;
  /** The dock/taskbar badge, where the platform has one. */
  setBadgeCount?: (count: number) => void;
  /** The system clipboard (the renderer has no clipboard permission). */
  copyText?: (text: string) => void;
  /** The HTML compatibility check's worker (compat-worker.ts, built beside index.js). */
  compatWorker?: string | URL;
  /** Prints a document (the system's dialog), or renders it as PDF and saves it where the user chooses. */
  print?: (document: string, mode: 'print' | 'pdf', suggestedName: string) => Promise<{ printed: boolean; savedTo: string | null }>;
}

export type { ConsentQuestion } from './connect.ts';
export { toBridgeError } from './api/errors.ts';


export interface Handlers {
  table: HandlerTable;
  /** Every secret main holds right now, for redaction. */
  secrets: () => string[];
  dispose: () => void;
  /** Polls the watched list for new mail. */
  poller: MailPoller;
  /** Sends every delete still waiting for its undo window (quitting). */
  flush: () => Promise<void>;
  /** Deletes inside their undo window: a quit waits for them. */
  waitingDeletes: () => number;
  /** At start: sends the deletes a previous run journaled but could not send. */
  resumeDeletes: () => Promise<void>;
  /** A rule with unsaved changes, as the renderer last reported (quitting asks). */
  unsavedDraft: () => string | null;
}

export function createHandlers(deps: HandlerDeps): Handlers {
  const { accounts } = deps;
  const session = new AccountSession({
    ...deps,
    onDeleteRefused: (entry, error) => deps.emit('deleteFailed', { id: entry.id, kind: entry.kind, error: toBridgeError(error, handlers.secrets()) }),
  });
  /** The secrets main holds, opened once (opening a token may ask the OS keyring), until accounts change. */
  let knownSecrets: string[] | null = null;
  const withClient = <T>(run: (client: ServiceClient) => Promise<T>) => session.withClient(run);

  const accountsState = (): AccountsState => ({
    accounts: accounts.summaries(),
    activeId: accounts.activeId,
    demo: accounts.activeId === null,
    encryptionAvailable: accounts.encryptionAvailable,
    settingsRecovered: accounts.recovered,
  });

  const announce = (): AccountsState => {
    // Accounts changed: the secrets to redact are read again when next needed.
    knownSecrets = null;
    const state = accountsState();
    deps.emit('accountsChanged', state);
    return state;
  };

  function endSession(): void {
    session.end();
    // The renderer says what to watch on the next account.
    poller.watch(null, false);
  }


  /** Local or private origins the demo's "Send test" may reach: this session only (the demo has no account to keep them). */
  const demoTestTargets = new Set<string>();
  /** Asked in main's own dialog, once per account and origin: never the renderer's word. */
  async function allowTestTarget(origin: string, purpose: 'send-test' | 'link-check' = 'send-test'): Promise<boolean> {
    const id = accounts.activeId;
    if (id === null ? demoTestTargets.has(origin) : accounts.trustsTestTarget(id, origin)) return true;
    if (!(await deps.confirm(privateTargetQuestion(origin, purpose)))) return false;
    if (id === null) demoTestTargets.add(origin);
    else await accounts.trustTestTarget(id, origin);
    return true;
  }

  /** The title of a rule the renderer has unsaved changes to. */
  let unsavedDraft: string | null = null;

  const poller = new MailPoller({
    intervalMs: deps.pollIntervalMs ?? DEFAULT_POLL_MS,
    fetchPage: (query) => withClient((c) => c.listEmails(query, { fresh: true })),
    fetchUnread: () => withClient(async (c) => (await c.listEmails({ unread: true, limit: 1 }, { fresh: true })).meta.total),
    rate: () => session.rateLimit,
    onPage: (query, page) => deps.emit('listPolled', { query, page }),
    onNewMail: (emails) => {
      if (!accounts.settings.notifyNewMail || !deps.notify) return;
      const first = emails[0]!;
      const from = first.sender.display_name || first.sender.email;
      deps.notify(emails.length === 1 ? `New mail from ${from}` : `${emails.length} new emails`, first.subject || '(no subject)');
    },
    onUnread: (count) => deps.setBadgeCount?.(count),
    setTimer: (run, ms) => {
      const timer = setTimeout(run, ms);
      return () => clearTimeout(timer);
    },
    now: Date.now,
  });

  function checkedAutomation(input: Record<string, unknown>) {
    const active = accounts.summaries().find((a) => a.id === accounts.activeId);
    const checked = validateAutomationInput(input, active?.flavor ?? DEFAULT_FLAVOR);
    if (!checked.ok) {
      throw new ServiceError('validation', 'Some fields need attention.', { fields: checked.errors });
    }
    return checked.value;
  }

  const table: HandlerTable = {
    listEmails: ({ fresh, ...query }) => {
      if (fresh) poller.refreshed();
      return withClient((c) => c.listEmails(query, { view: 'list', fresh }));
    },
    watchList: async ({ query, visible }) => {
      poller.watch(query, visible);
      return null;
    },
    getEmail: ({ id }) => withClient((c) => c.getEmail(id, { view: 'message' })),
    getEmailBody: ({ id, format, whole }) => withClient((c) => (whole ? c.getEmailBody(id, format) : c.readerBody(id, format))),
    openEmail: ({ id }) =>
      withClient(async (c) => {
        // The list told main which formats it has: record and body are asked for together.
        const known = c.knownEmail(id);
        if (known && known.read === null) {
          // Reading comes first: the body now; the JSON read that marks it read on the server is
          // background work, queued within the rate budget (never dropped for it), sent when it allows.
          const body = await c.readerBody(id, preferredFormat(known));
          void c.getEmail(id).catch(() => undefined);
          return { email: { ...known, read: new Date().toISOString() }, body };
        }
        const early = known ? c.readerBody(id, preferredFormat(known)).catch(() => null) : null;
        const email = await c.getEmail(id, { view: 'message' });
        const format = preferredFormat(email);
        const earlyBody = await early;
        const body = earlyBody?.format === format ? earlyBody : await c.readerBody(id, format);
        return { email, body };
      }),
    deleteEmail: ({ id, undoMs }) => session.deleteSoon('email', id, undoMs),
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
    checkLinks: ({ id }) =>
      withClient(async (c) => {
        const email = c.knownEmail(id) ?? (await c.getEmail(id));
        const html = email.has_html ? (await c.getEmailBody(id, 'html')).content : null;
        const text = email.has_text ? (await c.getEmailBody(id, 'text')).content : null;
        // Asked for by the user, never before; private targets only with main's consent, as for Send test.
        return { links: await checkLinks(urlsOf(html, text), (origin) => allowTestTarget(origin, 'link-check')) };
      }),
    checkCompatibility: ({ id }) =>
      withClient(async (c) => {
        const email = c.knownEmail(id) ?? (await c.getEmail(id));
        if (!email.has_html) throw new ServiceError('not-found', 'This email has no HTML part to check.');
        if (!deps.compatWorker) throw new ServiceError('unsupported', 'This build has no compatibility check.');
        return runCompat(deps.compatWorker, (await c.getEmailBody(id, 'html')).content);
      }),
    printEmail: ({ id, html, text, remote, pdf }) =>
      withClient(async (c) => {
        if (!deps.print) throw new ServiceError('unsupported', 'This build cannot print.');
        // The header is main's own record of the email; the body is what the reader shows.
        const email = c.knownEmail(id) ?? (await c.getEmail(id));
        const body = html !== null ? { html } : { text: text ?? '' };
        const date = new Date(email.created_at).toUTCString();
        return deps.print(printDocument({ email, body, remote, date }), pdf ? 'pdf' : 'print', safeFileName(`${email.subject || 'email'}.pdf`));
      }),
    automationPayload: ({ emailId, input }) => {
      const body = checkedAutomation(input);
      return withClient(async (c) => (await payloadFor(c, emailId, body)).preview);
    },
    sendTestPayload: ({ emailId, input }) => {
      const body = checkedAutomation(input);
      if (!body.action_url) throw new ServiceError('validation', 'Give the rule a webhook URL to send a test to.', { fields: { action_url: ['A webhook URL is needed for a test.'] } });
      return withClient(async (c) => sendPayload(body.action_url!, (await payloadFor(c, emailId, body)).payload, { allowPrivate: (origin) => allowTestTarget(origin) }));
    },
    reportUnsaved: async ({ title }) => {
      unsavedDraft = title;
      return null;
    },
    copyText: async ({ text }) => {
      deps.copyText?.(text);
      return null;
    },
    getInlineImages: ({ id }) => withClient(async (c) => inlineImages((await c.getEmailBody(id, 'raw')).content)),
    listAutomations: () => withClient((c) => c.listAutomations()),
    createAutomation: ({ input }) => {
      const body = checkedAutomation(input);
      return withClient((c) => c.createAutomation(body));
    },
    updateAutomation: ({ id, input }) => {
      const body = checkedAutomation(input);
      return withClient((c) => c.updateAutomation(id, body));
    },
    deleteAutomation: ({ id, undoMs }) => session.deleteSoon('automation', id, undoMs),

    getAccounts: async () => accountsState(),
    saveAccount: async (input) => {
      const id = await saveAccount(input, deps);
      if (session.activeKey === id) endSession();
      return announce();
    },
    testConnection: (input) => testConnection(input, deps),
    switchAccount: async ({ id }) => {
      // Deletes waiting for their undo window belong to the account they were made in.
      await session.flush('running');
      await accounts.setActive(id);
      endSession();
      return announce();
    },
    removeAccount: async ({ id }) => {
      await accounts.remove(id);
      if (session.activeKey === id || accounts.activeId === null) endSession();
      return announce();
    },
    getSettings: async () => accounts.settings,
    updateSettings: (patch) => accounts.updateSettings(patch),
    openExternal: async ({ url }) => {
      const safe = normaliseExternalUrl(url);
      if (safe === null) {
        throw new ServiceError('bad-request', 'Only web and mailto links open outside the app.');
      }
      await deps.openExternal(safe);
      return null;
    },
    getAppInfo: async () => ({ ...deps.app, demo: accounts.activeId === null }),
    installUpdate: async () => {
      deps.installUpdate?.();
      return null;
    },
  };

  const handlers: Handlers = {
    table,
    secrets: () => {
      if (knownSecrets && (session.demoToken === null || knownSecrets.includes(session.demoToken))) return knownSecrets;
      const found: string[] = session.demoToken ? [session.demoToken] : [];
      for (const summary of accounts.summaries()) {
        try {
          const { token } = accounts.connection(summary.id);
          if (token !== null) found.push(token, ...token.split(':').filter((part) => part.length >= 6));
        } catch {
          // No usable token: nothing to redact.
        }
      }
      knownSecrets = found;
      return found;
    },
    dispose: () => {
      poller.stop();
      endSession();
    },
    poller,
    flush: () => session.flush('quitting'),
    waitingDeletes: () => session.waitingDeletes,
    resumeDeletes: () => session.resumeDeletes(),
    unsavedDraft: () => unsavedDraft,
  };
  return handlers;
}

/**
 * The one entry point for a call from the renderer: the method must be in the
 * contract and its argument must parse, or nothing runs.
 */
export async function dispatch(handlers: Handlers, method: unknown, arg: unknown): Promise<Envelope<unknown>> {
  if (typeof method !== 'string' || !Object.hasOwn(contract, method)) {
    return { ok: false, error: { kind: 'bad-request', message: 'Unknown call.', details: {} } };
  }
  const name = method as Method;
  const parsed = contract[name].safeParse(arg);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    return {
      ok: false,
      error: {
        kind: 'bad-request',
        message: `Invalid argument for ${name}: ${where}${issue?.message ?? 'rejected'}.`,
        details: {},
      },
    };
  }
  try {
    const run = handlers.table[name] as (value: unknown) => Promise<unknown>;
    return { ok: true, value: await run(parsed.data) };
  } catch (error) {
    // A token typed into a form but not (yet) stored is a secret too.
    const typed = (parsed.data as { token?: unknown } | undefined)?.token;
    const secrets = [...handlers.secrets(), ...(typeof typed === 'string' ? [typed] : [])];
    if (!(error instanceof ServiceError)) {
      // A bug, not a service answer: leave a trace for developers, secrets removed.
      const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
      console.error(`[inbox-desk] ${name} failed unexpectedly: ${redact(detail, secrets)}`);
    }
    return { ok: false, error: toBridgeError(error, secrets) };
  }
}
