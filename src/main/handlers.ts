/**
 * The contract implemented on the API client and the account store, one
 * domain a module (handlers/: mail, automations, qa, accounts), composed
 * here. No electron import: Electron's IPC and the test host register this
 * same table.
 */
import { contract, type Envelope, type Method } from '../shared/contract.ts';
import { redact, ServiceError, toBridgeError } from './api/errors.ts';
import { AccountSession } from './account-session.ts';
import type { MailPoller } from './poller.ts';
import { CATCHER_ID } from '../shared/domain/catcher.ts';
import { accountHandlers } from './handlers/accounts.ts';
import { automationHandlers } from './handlers/automations.ts';
import { privateTargetConsent, Redaction, type HandlerContext, type HandlerDeps, type HandlerTable } from './handlers/context.ts';
import { mailHandlers, mailPoller } from './handlers/mail.ts';
import { qaHandlers } from './handlers/qa.ts';
import { ShownImages } from './qa/shown-images.ts';
import { loopHandlers, testerLoop } from './handlers/loop.ts';
import type { TesterLoop } from './tester-loop.ts';

export type { BenchPort, DesktopPort, HandlerDeps, HandlerTable, InspectorPage, KeptPort, MailPort } from './handlers/context.ts';
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
  /** The tester's loop: the tray and the global shortcut act on it. */
  loop: TesterLoop;
  /** Images main made for the renderer (compare's renderings), served by the app:// protocol. */
  shownImages: ShownImages;
}

export function createHandlers(deps: HandlerDeps): Handlers {
  const { accounts, mail, desktop } = deps;
  const { catcher } = mail;
  const session = new AccountSession({
    accounts,
    emit: deps.emit,
    setTimer: deps.setTimer,
    startDemo: mail.startDemo,
    http: mail.http,
    pendingDeletesPath: deps.kept?.pendingDeletesPath,
    ...(catcher ? { startCatcher: () => catcher.connection() } : {}),
    onDeleteRefused: (entry, error) => deps.emit('deleteFailed', { id: entry.id, kind: entry.kind, error: toBridgeError(error, secrets.all()) }),
    onDeleteSent: (entry) => deps.emit('deleteSettled', { id: entry.id, kind: entry.kind }),
  });
  const secrets = new Redaction(accounts, session);
  const context: HandlerContext = {
    accounts,
    session,
    emit: deps.emit,
    withClient: (run) => session.withClient(run),
    secrets,
    allowPrivateTarget: privateTargetConsent(accounts, desktop.confirm),
  };
  const loop = testerLoop(context, { ...desktop, catcher, setTimer: deps.setTimer }, () => poller.arrived());
  const poller = mailPoller(context, { ...mail, ...desktop, ...deps.kept }, (emails) => void loop.newMail(emails));
  loop.applyShortcut(accounts.settings.copyCodeShortcut);
  const endSession = (): void => {
    session.end();
    // The renderer says what to watch on the next account; watches were addresses on the old one.
    poller.watch(null, false);
    loop.reset();
  };
  const { unsavedDraft, ...automations } = automationHandlers(context);
  const { announce, ...accountTable } = accountHandlers(context, deps, endSession);
  // The catcher says what it is doing (starting, listening, its port taken), and when mail arrives:
  // the switcher and Settings follow, and the list it shows polls at once.
  const stopCatcher = [
    catcher?.onChange((state) => {
      // Chaos set through the API (Mailpit's PUT) is kept like chaos set here: across restarts only when pinned.
      if (state.chaos) void accounts.keepChaos(state.chaos);
      announce();
    }),
    catcher?.onArrival(() => {
      if (accounts.activeId !== CATCHER_ID) return;
      poller.arrived();
      loop.arrived();
    }),
  ];
  const { updateSettings, ...accountRest } = accountTable;
  const shownImages = new ShownImages();

  return {
    table: {
      ...mailHandlers(context, poller, { ...desktop, ...deps.kept }),
      ...automations,
      ...qaHandlers(context, { ...desktop, ...deps.bench }, shownImages),
      ...accountRest,
      updateSettings: async (patch) => {
        const settings = await updateSettings(patch);
        if (patch.copyCodeShortcut !== undefined) loop.applyShortcut(settings.copyCodeShortcut);
        return settings;
      },
      ...loopHandlers(loop),
    },
    secrets: () => secrets.all(),
    dispose: () => {
      for (const stop of stopCatcher) stop?.();
      poller.stop();
      loop.dispose();
      endSession();
    },
    poller,
    flush: () => session.flush('quitting'),
    waitingDeletes: () => session.waitingDeletes,
    resumeDeletes: () => session.resumeDeletes(),
    unsavedDraft,
    loop,
    shownImages,
  };
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
