/**
 * The contract implemented on the API client and the account store, one
 * domain a module (handlers/: mail, automations, qa, accounts), composed
 * here. No electron import: Electron's IPC and the test host register this
 * same table.
 */
import { contract, type Envelope, type EventName, type Events, type MenuKeys, type Method, type ParsedArgs, type Results } from '../shared/contract.ts';
import type { Connection } from './api/client.ts';
import { redact, ServiceError, toBridgeError } from './api/errors.ts';
import type { HttpOptions } from './api/http.ts';
import type { AccountManager } from './account/accounts.ts';
import { AccountSession } from './account-session.ts';
import type { ConsentQuestion } from './connect.ts';
import type { MailPoller } from './poller.ts';
import type { Catcher } from './catcher.ts';
import { CATCHER_ID } from '../shared/domain/catcher.ts';
import { accountHandlers } from './handlers/accounts.ts';
import { automationHandlers } from './handlers/automations.ts';
import { privateTargetConsent, Redaction, type HandlerContext } from './handlers/context.ts';
import { mailHandlers, mailPoller } from './handlers/mail.ts';
import { qaHandlers } from './handlers/qa.ts';
import { ShownImages } from './qa/shown-images.ts';
import { loopHandlers, testerLoop } from './handlers/loop.ts';
import type { LoopDeps, TesterLoop } from './tester-loop.ts';
import type { LoopState } from '../shared/domain/tester-loop.ts';
import type { ListSnapshots } from './list-snapshot.ts';

export type HandlerTable = { [M in Method]: (arg: ParsedArgs[M]) => Promise<Results[M]> };

export interface HandlerDeps {
  accounts: AccountManager;
  /** Starts (once) the bundled reference service and answers how to reach it. */
  startDemo: () => Promise<Connection>;
  /** "This computer": the catcher (catcher.ts), absent in builds and tests without one. */
  catcher?: Catcher;
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
  /** The menu shown again with these keys beside its items (the renderer's registry and the user's keymap). */
  setMenuKeys?: (keys: MenuKeys) => void;
  /** The journal of deletes in their undo window, so that quitting, a crash or the OS ending the app loses none. */
  pendingDeletesPath?: string;
  /** Timers for the undo windows (tests hand in their own clock). */
  setTimer?: (run: () => void, ms: number) => () => void;
  /** How often main polls the watched list (default 30 s). */
  pollIntervalMs?: number;
  /** A desktop notification (Electron's Notification), when the user turned them on; `copy` is what its Copy action copies. */
  notify?: (note: { title: string; body: string; copy: string | null }) => void;
  /** The system-wide shortcut that copies the newest code (Electron's globalShortcut). */
  shortcuts?: LoopDeps['shortcuts'];
  /** The first screen of each account as it last stood (list-snapshot.ts): painted at the next start before the server answers. */
  snapshots?: ListSnapshots;
  /** The tester's loop changed (the tray shows its newest code). */
  onLoopState?: (state: LoopState) => void;
  /** The dock/taskbar badge, where the platform has one. */
  setBadgeCount?: (count: number) => void;
  /** The system clipboard (the renderer has no clipboard permission). */
  copyText?: (text: string) => void;
  /** The HTML compatibility check's worker (compat-worker.ts, built beside index.js). */
  compatWorker?: string | URL;
  /** Prints a document (the system's dialog), or renders it as PDF and saves it where the user chooses. */
  print?: (document: string, mode: 'print' | 'pdf', suggestedName: string) => Promise<{ printed: boolean; savedTo: string | null }>;
  /**
   * A hidden window showing `document` at `width` CSS pixels, as tall as the document: scripts of the
   * document's own never run (sanitized, and its policy forbids them); main's script runs beside it
   * (the accessibility check), and it can be captured as a PNG (compare). Absent where there is none.
   */
  inspector?: (document: string, width: number) => Promise<InspectorPage>;
  /** axe-core's source (the accessibility check's engine, bundled), read when the check first runs. */
  axeSource?: () => Promise<string>;
}

export interface InspectorPage {
  /** Runs `script` in the page (an isolated world in Electron) and answers what its last expression gives, awaited. */
  evaluate: (script: string) => Promise<unknown>;
  screenshot: () => Promise<Buffer>;
  close: () => void;
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
  /** The tester's loop: the tray and the global shortcut act on it. */
  loop: TesterLoop;
  /** Images main made for the renderer (compare's renderings), served by the app:// protocol. */
  shownImages: ShownImages;
}

export function createHandlers(deps: HandlerDeps): Handlers {
  const { accounts } = deps;
  const session = new AccountSession({
    ...deps,
    ...(deps.catcher ? { startCatcher: () => deps.catcher!.connection() } : {}),
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
    allowPrivateTarget: privateTargetConsent(accounts, deps.confirm),
  };
  const loop = testerLoop(context, deps, () => poller.arrived());
  const poller = mailPoller(context, deps, (emails) => void loop.newMail(emails));
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
    deps.catcher?.onChange((state) => {
      // Chaos set through the API (Mailpit's PUT) is kept like chaos set here: across restarts only when pinned.
      if (state.chaos) void accounts.keepChaos(state.chaos);
      announce();
    }),
    deps.catcher?.onArrival(() => {
      if (accounts.activeId !== CATCHER_ID) return;
      poller.arrived();
      loop.arrived();
    }),
  ];
  const { updateSettings, ...accountRest } = accountTable;
  const shownImages = new ShownImages();

  return {
    table: {
      ...mailHandlers(context, poller, deps),
      ...automations,
      ...qaHandlers(context, deps, shownImages),
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
