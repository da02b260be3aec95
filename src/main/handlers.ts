/**
 * The contract implemented on the API client and the account store. No
 * electron import: Electron's IPC and the test host register this same table.
 */
import {
  contract,
  ERROR_KINDS,
  type AccountsState,
  type BridgeError,
  type Envelope,
  type EventName,
  type Events,
  type Method,
  type ParsedArgs,
  type Results,
} from '../shared/contract.ts';
import { validateAutomationInput } from '../shared/domain/automation.ts';
import { preferredFormat } from '../shared/domain/email.ts';
import { ServiceClient, type Connection } from './api/client.ts';
import { ServiceError } from './api/errors.ts';
import type { HttpOptions } from './api/http.ts';
import { DEFAULT_FLAVOR, detectionOrder, FLAVOR_TRAITS, likelyFlavor, type FlavorName } from '../shared/domain/flavor.ts';
import { parseServerAddress } from '../shared/domain/server-address.ts';
import { AccountManager, TEAM_NEEDED, type Consent } from './account/accounts.ts';
import { detectServer } from './api/detect.ts';
import { inlineImages } from './api/inline-images.ts';
import { payloadFor, sendPayload } from './api/payload.ts';
import { originOf, transportOf } from './account/origin.ts';
import { safeFileName } from './file-names.ts';
import { DeferredActions } from './deferred.ts';
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
  /** How often main polls the watched list (default 30 s). */
  pollIntervalMs?: number;
  /** A desktop notification (Electron's Notification), when the user turned them on. */
  notify?: (title: string, body: string) => void;
  /** The dock/taskbar badge, where the platform has one. */
  setBadgeCount?: (count: number) => void;
  /** The system clipboard (the renderer has no clipboard permission). */
  copyText?: (text: string) => void;
}

export interface ConsentQuestion {
  kind: 'plaintext-token' | 'clear-transport' | 'private-target';
  title: string;
  message: string;
  confirmLabel: string;
}

const DEMO = 'demo';

/**
 * Where an address the user typed or pasted points: base, team (from the
 * field, else from the path) and the flavor, when it is said or the path
 * shows it. Refuses what is not a usable address, with a field message.
 */
function resolveAddress(input: { baseUrl: string; teamId?: string; flavor?: 'auto' | FlavorName }): {
  baseUrl: string;
  teamId: string;
  flavor?: FlavorName;
} {
  const parsed = parseServerAddress(input.baseUrl);
  if (!parsed.ok) throw new ServiceError('validation', parsed.message, { fields: { baseUrl: [parsed.message] } });
  const flavor = input.flavor && input.flavor !== 'auto' ? input.flavor : parsed.flavor;
  return { baseUrl: AccountManager.normaliseBaseUrl(parsed.baseUrl, flavor), teamId: input.teamId?.trim() || parsed.teamId || '', flavor };
}

function clearTransportQuestion(baseUrl: string): ConsentQuestion {
  return {
    kind: 'clear-transport',
    title: 'Send the token unencrypted?',
    message: `${originOf(baseUrl)} uses plain http://. The access token and every email would cross the network unencrypted, readable by anyone on the way. Use https:// unless this network is yours.`,
    confirmLabel: 'Use http:// anyway',
  };
}

function privateTargetQuestion(origin: string): ConsentQuestion {
  return {
    kind: 'private-target',
    title: 'Send a test to this machine or your network?',
    message: `${origin} is on this computer or a private network. Inbox Desk will post the test payload there and show the start of its answer. Allow it for this account only if you run that receiver.`,
    confirmLabel: 'Allow for this account',
  };
}

const PLAINTEXT_QUESTION: ConsentQuestion = {
  kind: 'plaintext-token',
  title: 'Store the token unencrypted?',
  message:
    'This system has no keyring, so the access token would sit in clear text in the settings file, readable by any program running as you. Otherwise it is kept for this session only.',
  confirmLabel: 'Store unencrypted',
};

interface Session {
  key: string;
  client: ServiceClient;
  dispose: () => void;
}

export interface Handlers {
  table: HandlerTable;
  /** Every secret main holds right now, for redaction. */
  secrets: () => string[];
  dispose: () => void;
  /** Polls the watched list for new mail. */
  poller: MailPoller;
  /** Sends every delete still waiting for its undo window (quitting). */
  flush: () => Promise<void>;
  /** A rule with unsaved changes, as the renderer last reported (quitting asks). */
  unsavedDraft: () => string | null;
}

export function createHandlers(deps: HandlerDeps): Handlers {
  let session: Session | null = null;
  let demoToken: string | null = null;
  const { accounts } = deps;

  const accountsState = (): AccountsState => ({
    accounts: accounts.summaries(),
    activeId: accounts.activeId,
    demo: accounts.activeId === null,
    encryptionAvailable: accounts.encryptionAvailable,
    settingsRecovered: accounts.recovered,
  });

  const announce = (): AccountsState => {
    const state = accountsState();
    deps.emit('accountsChanged', state);
    return state;
  };

  async function current(): Promise<Session> {
    const key = accounts.activeId ?? DEMO;
    if (session?.key === key) return session;
    const connection = key === DEMO ? await deps.startDemo() : accounts.connection(key);
    if (key === DEMO) demoToken = connection.token;
    // Another call may have switched first while the demo was starting.
    if (session?.key === key) return session;
    session?.dispose();
    const client = new ServiceClient(connection, deps.http);
    const stop = client.onRateLimit((state) => deps.emit('rateLimit', state));
    session = {
      key,
      client,
      dispose: () => {
        stop();
        client.abortAll();
      },
    };
    return session;
  }

  /** Runs a call on the current account; a result that lands after a switch is dropped. */
  async function withClient<T>(run: (client: ServiceClient) => Promise<T>): Promise<T> {
    const started = await current();
    const result = await run(started.client);
    if (session !== started) {
      throw new ServiceError('cancelled', 'The account changed while this was loading; showing the new account.');
    }
    return result;
  }

  function endSession(): void {
    session?.dispose();
    session = null;
    // The renderer says what to watch on the next account.
    poller.watch(null, false);
  }

  const deferred = new DeferredActions();
  const deferredKey = (kind: 'email' | 'automation', id: string) => `${kind}:${id}`;

  /**
   * A delete with an undo window: at once without one, else sent by main when
   * the window closes (or on quit). A failure then puts the item back on screen.
   */
  async function deleteSoon(kind: 'email' | 'automation', id: string, undoMs: number | undefined, run: (client: ServiceClient) => Promise<void>): Promise<null> {
    if (!undoMs) {
      await withClient(run);
      return null;
    }
    const started = await current();
    deferred.schedule(deferredKey(kind, id), undoMs, async () => {
      try {
        await run(started.client);
      } catch (error) {
        deps.emit('deleteFailed', { id, kind, error: toBridgeError(error, handlers.secrets()) });
      }
    });
    return null;
  }
  /** Local or private origins the demo's "Send test" may reach: this session only (the demo has no account to keep them). */
  const demoTestTargets = new Set<string>();
  /** Asked in main's own dialog, once per account and origin: never the renderer's word. */
  async function allowTestTarget(origin: string): Promise<boolean> {
    const id = accounts.activeId;
    if (id === null ? demoTestTargets.has(origin) : accounts.trustsTestTarget(id, origin)) return true;
    if (!(await deps.confirm(privateTargetQuestion(origin)))) return false;
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
    rate: () => session?.client.rateLimit ?? { limit: null, remaining: null, blockedUntil: null },
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
    deleteEmail: ({ id, undoMs }) => deleteSoon('email', id, undoMs, (c) => c.deleteEmail(id)),
    undoDelete: async ({ id, kind }) => ({ undone: deferred.cancel(deferredKey(kind ?? 'email', id)) }),
    setFavorite: ({ id, favorite }) => withClient((c) => c.setFavorite(id, favorite)).then(() => null),
    saveAttachment: ({ emailId, attachmentId }) =>
      withClient(async (c) => {
        const email = await c.getEmail(emailId);
        const attachment = email.attachments.find((a) => a.id === attachmentId);
        if (!attachment) throw new ServiceError('not-found', 'That attachment is not part of this email.');
        const { bytes } = await c.getAttachment(emailId, attachmentId);
        return { savedTo: await deps.saveFile(safeFileName(attachment.file_name), bytes) };
      }),
    automationPayload: ({ emailId, input }) => {
      const body = checkedAutomation(input);
      return withClient(async (c) => (await payloadFor(c, emailId, body)).preview);
    },
    sendTestPayload: ({ emailId, input }) => {
      const body = checkedAutomation(input);
      if (!body.action_url) throw new ServiceError('validation', 'Give the rule a webhook URL to send a test to.', { fields: { action_url: ['A webhook URL is needed for a test.'] } });
      return withClient(async (c) => sendPayload(body.action_url!, (await payloadFor(c, emailId, body)).payload, { allowPrivate: allowTestTarget }));
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
    deleteAutomation: ({ id, undoMs }) => deleteSoon('automation', id, undoMs, (c) => c.deleteAutomation(id)),

    getAccounts: async () => accountsState(),
    saveAccount: async (input) => {
      const where = resolveAddress(input);
      const baseUrl = where.baseUrl;
      const consent: Consent = {};
      if (transportOf(baseUrl) === 'clear') {
        // Asked again whenever the address moves to a clear-text origin.
        const known = input.id ? accounts.summaries().find((a) => a.id === input.id) : undefined;
        consent.clearTransport =
          (known !== undefined && known.transport === 'clear' && originOf(known.baseUrl) === originOf(baseUrl)) ||
          (await deps.confirm(clearTransportQuestion(baseUrl)));
      }
      if (input.token && input.allowPlaintextToken && !accounts.encryptionAvailable) {
        consent.plaintext = await deps.confirm(PLAINTEXT_QUESTION);
      }
      const id = await accounts.save({ ...input, baseUrl, teamId: where.teamId, flavor: where.flavor ?? input.flavor }, consent);
      if (session?.key === id) endSession();
      return announce();
    },
    testConnection: async (input) => {
      const where = resolveAddress(input);
      let secret = input.token ?? null;
      if (!secret && input.accountId && accounts.boundOrigin(input.accountId) !== null) {
        secret = accounts.tokenFor(input.accountId, where.baseUrl);
      }
      let candidates: FlavorName[] = where.flavor ? [where.flavor] : detectionOrder(where.teamId);
      // A kind that needs a team and a token is not worth asking without them.
      const serviceNeeds: Record<string, string[]> = {};
      if (!where.teamId) serviceNeeds.teamId = [TEAM_NEEDED];
      if (!secret) serviceNeeds.token = ['Enter the access token.'];
      if (Object.keys(serviceNeeds).length > 0) candidates = candidates.filter((f) => !FLAVOR_TRAITS[f].teams && FLAVOR_TRAITS[f].auth !== 'bearer');
      if (candidates.length === 0) {
        throw new ServiceError('validation', Object.values(serviceNeeds)[0]![0]!, { fields: serviceNeeds });
      }
      if (secret && transportOf(where.baseUrl) === 'clear' && !(await deps.confirm(clearTransportQuestion(where.baseUrl)))) {
        throw new ServiceError('validation', 'Not tested: the token was not sent over plain http://.', {
          fields: { baseUrl: ['Use https:// for this server.'] },
        });
      }
      try {
        const found = await detectServer({ baseUrl: where.baseUrl, teamId: where.teamId, secret, candidates, http: deps.http });
        return { ok: true as const, ...found, baseUrl: where.baseUrl, teamId: FLAVOR_TRAITS[found.flavor].teams ? where.teamId : '' };
      } catch (error) {
        if (error instanceof ServiceError && error.kind === 'auth') {
          // Without a team, the server that asked is MailCare's kind: its secret is a login email and password.
          const login = FLAVOR_TRAITS[where.flavor ?? likelyFlavor(where.teamId)].auth === 'basic-or-none';
          const message = login
            ? secret
              ? 'The server did not accept this login (401): check the email and password.'
              : 'This server asks for a login (401): enter its login email and password.'
            : secret
              ? 'The server did not accept this token (401). Check it for a typo, or whether it has expired.'
              : 'This server asks for an access token (401): enter it.';
          throw new ServiceError('auth', message, { status: 401, fields: login ? { username: [message] } : { token: [message] } });
        }
        throw error;
      }
    },
    switchAccount: async ({ id }) => {
      // Deletes waiting for their undo window belong to the account they were made in.
      await deferred.flush();
      await accounts.setActive(id);
      endSession();
      return announce();
    },
    removeAccount: async ({ id }) => {
      await accounts.remove(id);
      if (session?.key === id || accounts.activeId === null) endSession();
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
      const found: string[] = demoToken ? [demoToken] : [];
      for (const summary of accounts.summaries()) {
        try {
          const { token } = accounts.connection(summary.id);
          if (token !== null) found.push(token, ...token.split(':').filter((part) => part.length >= 6));
        } catch {
          // No usable token: nothing to redact.
        }
      }
      return found;
    },
    dispose: () => {
      poller.stop();
      endSession();
    },
    poller,
    flush: () => deferred.flush(),
    unsavedDraft: () => unsavedDraft,
  };
  return handlers;
}

function redact(text: string, secrets: string[]): string {
  let result = text;
  for (const secret of secrets) if (secret.length >= 4) result = result.split(secret).join('[redacted]');
  return result;
}

/** Any thrown value as the contract's one error shape, with secrets taken out. */
export function toBridgeError(error: unknown, secrets: string[] = []): BridgeError {
  const bridge: BridgeError =
    error instanceof ServiceError
      ? error.toBridge()
      : { kind: 'server', message: 'Inbox Desk hit an unexpected error. Try again.', details: {} };
  if (!ERROR_KINDS.includes(bridge.kind)) bridge.kind = 'server';
  bridge.message = redact(bridge.message, secrets);
  if (bridge.details.fields) {
    bridge.details.fields = Object.fromEntries(
      Object.entries(bridge.details.fields).map(([field, messages]) => [field, messages.map((m) => redact(m, secrets))]),
    );
  }
  return bridge;
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
