/**
 * What every domain's handlers share: the table they fill in, what main
 * hands them (HandlerDeps and its ports), the open account session, the secrets to keep out
 * of messages (redaction), and main's consent for private targets. Built once
 * by ../handlers.ts; each domain module takes it, and none imports that file.
 */
import type { EventName, Events, MenuKeys, Method, ParsedArgs, Results } from '../../shared/contract.ts';
import type { LoopState } from '../../shared/domain/tester-loop.ts';
import type { Connection } from '../api/client.ts';
import type { HttpOptions } from '../api/http.ts';
import type { Catcher } from '../catcher.ts';
import type { ListSnapshots } from '../list-snapshot.ts';
import type { LoopDeps } from '../tester-loop.ts';
import type { AccountManager } from '../account/accounts.ts';
import type { AccountSession } from '../account-session.ts';
import type { ServiceClient } from '../api/client.ts';
import { privateTargetQuestion, type ConsentQuestion } from '../connect.ts';

export type HandlerTable = { [M in Method]: (arg: ParsedArgs[M]) => Promise<Results[M]> };

/**
 * What main hands the handlers, in four ports and the few things every
 * domain shares. A domain takes only the ports it uses; tests hand in their
 * own port where they stand in for the desktop or the clock.
 */
export interface HandlerDeps {
  accounts: AccountManager;
  app: { name: string; version: string; platform: string };
  emit: <E extends EventName>(event: E, payload: Events[E]) => void;
  /** Timers for the undo windows and the tester's loop (tests hand in their own clock). */
  setTimer?: (run: () => void, ms: number) => () => void;
  mail: MailPort;
  desktop: DesktopPort;
  kept?: KeptPort;
  bench?: BenchPort;
}

/** Where mail comes from and how it is reached. */
export interface MailPort {
  /** Starts (once) the bundled reference service and answers how to reach it. */
  startDemo: () => Promise<Connection>;
  /** "This computer": the catcher (catcher.ts), absent in builds and tests without one. */
  catcher?: Catcher;
  http?: Partial<HttpOptions>;
  /** How often main polls the watched list (default 30 s). */
  pollIntervalMs?: number;
}

/** What only the desktop does: ask, open, save, copy, print, notify, and the shell's badge, menu, tray, shortcut and updates. */
export interface DesktopPort {
  openExternal: (url: string) => Promise<void>;
  /** Asks the user where to save; answers the path, or null when cancelled. */
  saveFile: (suggestedName: string, bytes: Buffer) => Promise<string | null>;
  /**
   * Asks the user in main's own (native) dialog; true only on an explicit yes.
   * Consent that weakens token custody is never taken from the renderer's word.
   */
  confirm: (question: ConsentQuestion) => Promise<boolean>;
  /** A desktop notification (Electron's Notification), when the user turned them on; `copy` is what its Copy action copies. */
  notify?: (note: { title: string; body: string; copy: string | null }) => void;
  /** The system clipboard (the renderer has no clipboard permission). */
  copyText?: (text: string) => void;
  /** Prints a document (the system's dialog), or renders it as PDF and saves it where the user chooses. */
  print?: (document: string, mode: 'print' | 'pdf', suggestedName: string) => Promise<{ printed: boolean; savedTo: string | null }>;
  /** The dock/taskbar badge, where the platform has one. */
  setBadgeCount?: (count: number) => void;
  /** The menu shown again with these keys beside its items (the renderer's registry and the user's keymap). */
  setMenuKeys?: (keys: MenuKeys) => void;
  /** Quits and installs a downloaded update (absent where updates are off). */
  installUpdate?: () => void;
  /** The system-wide shortcut that copies the newest code (Electron's globalShortcut). */
  shortcuts?: LoopDeps['shortcuts'];
  /** The tester's loop changed (the tray shows its newest code). */
  onLoopState?: (state: LoopState) => void;
}

/** What outlives a run. */
export interface KeptPort {
  /** The journal of deletes in their undo window, so that quitting, a crash or the OS ending the app loses none. */
  pendingDeletesPath?: string;
  /** The first screen of each account as it last stood (list-snapshot.ts): painted at the next start before the server answers. */
  snapshots?: ListSnapshots;
}

/** The tester's bench engines, absent in builds and tests without them. */
export interface BenchPort {
  /** The HTML compatibility check's worker (compat-worker.ts, built beside index.js). */
  compatWorker?: string | URL;
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

export interface HandlerContext {
  accounts: AccountManager;
  session: AccountSession;
  emit: <E extends EventName>(event: E, payload: Events[E]) => void;
  withClient: <T>(run: (client: ServiceClient) => Promise<T>) => Promise<T>;
  secrets: Redaction;
  /** A local or private target (Send test, the link check) is reached only once the user said so, in main's own dialog. */
  allowPrivateTarget: (origin: string, purpose: 'send-test' | 'link-check') => Promise<boolean>;
}

/**
 * Every secret main holds, for taking out of any message: the account tokens
 * (opened once; opening one may ask the OS keyring) and the demo's, read again
 * only after the accounts changed.
 */
export class Redaction {
  private known: string[] | null = null;
  private readonly accounts: AccountManager;
  private readonly session: AccountSession;

  constructor(accounts: AccountManager, session: AccountSession) {
    this.accounts = accounts;
    this.session = session;
  }

  /** The accounts changed: read the secrets again when next needed. */
  forget(): void {
    this.known = null;
  }

  all(): string[] {
    const local = [...this.session.localTokens].filter(Boolean);
    if (this.known && local.every((token) => this.known!.includes(token))) return this.known;
    const found: string[] = [...local];
    for (const summary of this.accounts.summaries()) {
      try {
        const { token } = this.accounts.connection(summary.id);
        // A Basic login's password alone is a secret too.
        if (token !== null) found.push(token, ...token.split(':').filter((part) => part.length >= 6));
      } catch {
        // No usable token: nothing to redact.
      }
    }
    this.known = found;
    return found;
  }
}

/** Consent to reach local or private targets: asked once per account and origin (the demo's only for this run). */
export function privateTargetConsent(accounts: AccountManager, confirm: (question: ConsentQuestion) => Promise<boolean>): HandlerContext['allowPrivateTarget'] {
  const demoTargets = new Set<string>();
  return async (origin, purpose) => {
    const id = accounts.activeId;
    if (id === null ? demoTargets.has(origin) : accounts.trustsTestTarget(id, origin)) return true;
    if (!(await confirm(privateTargetQuestion(origin, purpose)))) return false;
    if (id === null) demoTargets.add(origin);
    else await accounts.trustTestTarget(id, origin);
    return true;
  };
}
