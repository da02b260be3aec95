/**
 * The test host: the built renderer (out/renderer) served on 127.0.0.1 and
 * opened in Debian's Chromium, with the very handler table Electron's main
 * registers bound behind the same `window.api` the preload exposes. Only the
 * transport differs: a Playwright binding instead of IPC.
 *
 *   openApp(browser, { baseUrl, teamId, token } | { demo: true }) → AppHandle
 *
 * Any spec can open the app against any server; see fixtures.ts.
 */
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page, Route } from '@playwright/test';
import { AccountManager } from '../../src/main/account/accounts.ts';
import { TokenVault } from '../../src/main/account/vault.ts';
import type { HttpOptions } from '../../src/main/api/http.ts';
import { demoService } from '../../src/main/local-service.ts';
import { Catcher } from '../../src/main/catcher.ts';
import { CATCHER_ID, type CatcherSettings } from '../../src/shared/domain/catcher.ts';
import { createHandlers, type Handlers } from '../../src/main/handlers.ts';
import type { IpcRegistry } from '../../src/main/ipc.ts';
import { desktopServices, wireReady, type DesktopLike } from '../../src/main/app-wiring.ts';
import { APP_ORIGIN } from '../../src/main/security.ts';
import { buildWindowApi } from '../../src/preload/api.ts';
import { BRIDGE_SPEC, eventChannel, type EventName, type Events, type MenuKeys } from '../../src/shared/contract.ts';
import type { FlavorName } from '../../src/shared/flavors/index.ts';
import { testCipher } from '../support/cipher.ts';
import { systemTray, type SystemTray } from '../../src/main/tray.ts';
import { ListSnapshots } from '../../src/main/list-snapshot.ts';

export type OpenAppOptions = ({ baseUrl: string; teamId?: string; token?: string; name?: string; flavor?: FlavorName } | { demo: true }) & {
  http?: Partial<HttpOptions>;
  /** Pretend the OS has no keyring. */
  noKeyring?: boolean;
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /** The answer main's native consent dialog gets (default: Cancel). */
  consent?: boolean;
  /** How often main polls for new mail (default: 30 s, as in the app). */
  pollIntervalMs?: number;
  /**
   * Origins the page's requests really reach (an attacker's server in a
   * privacy test), instead of being refused; they are noted in blockedRequests too.
   */
  passThrough?: string[];
  /** The demo's service also takes mail by SMTP on loopback (handle.demoSmtpPort()). */
  demoSmtp?: boolean;
  /** A settings folder of an earlier run (its accounts, its first-screen snapshot): kept after close. */
  dataDir?: string;
  /** The app's own files the page cannot load, as from a damaged install (their requests fail). */
  missingFiles?: RegExp;
  /** A script run in the page before the app's own (a benchmark's frame watcher). */
  initScript?: string;
  /** Global shortcuts another application holds already (registering them fails, as Electron's does). */
  takenShortcuts?: string[];
  /** "This computer" on (its SMTP on a free port; handle.catcherSmtpPort()), shown when `show`. Off otherwise, as no test shares port 1025. */
  catcher?: { show?: boolean; settings?: Partial<CatcherSettings> };
};

export interface AppHandle {
  page: Page;
  context: BrowserContext;
  handlers: Handlers;
  accounts: AccountManager;
  /** Everything that crossed the bridge towards the renderer: results, errors, events (JSON). */
  transcript: string[];
  /** The name of every call the renderer made, in order. */
  calls: string[];
  /** Calls the renderer made that main has not answered yet. */
  pendingCalls(): number;
  /** URLs the page tried to fetch beyond the app's own files. */
  blockedRequests: string[];
  /** URLs handed to the system browser. */
  openedExternally: string[];
  /** Titles of the consent dialogs main showed. */
  consentAsked: string[];
  /** What the user answers in main's consent dialogs from now on. */
  answerConsent(yes: boolean): void;
  /** Pushes an event from main, as Electron's main would. */
  emit<E extends EventName>(event: E, payload: Events[E]): void;
  /** How often the renderer asked main to install a downloaded update. */
  installUpdateCalls: number;
  /** The keys the renderer gave main for its menu, each time it did (main builds the menu again with them). */
  menuKeys: MenuKeys[];
  /** Desktop notifications main showed. */
  notifications: string[];
  /** The same, with the label of each one's button (Copy …) and what pressing it does. */
  notificationButtons: { title: string; body: string; action: { label: string; run: () => void } | null }[];
  /** Presses a global shortcut main registered with the system (false: none registered there). */
  pressGlobalShortcut(accelerator: string): boolean;
  /** The system-wide shortcuts main holds now. */
  globalShortcuts(): string[];
  /** The tray as main set it (tray.ts over a stand-in Tray): its title, tooltip and menu. */
  tray: { title: string; tooltip: string; items: { label: string; enabled: boolean; click?: () => void }[] } | null;
  /** The dock/taskbar badge main set last. */
  badgeCount: number | null;
  /** What main put on the clipboard last. */
  clipboard: string | null;
  settingsPath: string;
  /** The demo service's SMTP port, once it runs with demoSmtp. */
  demoSmtpPort(): number | null;
  /** The catcher's SMTP port, once it listens. */
  catcherSmtpPort(): number | null;
  catcher: Catcher;
  /** Where saved attachments land (the stand-in save dialog's choice). */
  dataDir: string;
  /** The text of each document sent to the (stand-in) printer, and the URLs the hidden print page asked for. */
  printed: string[];
  printRequests: string[];
  /** The documents main handed to the printer, as HTML. */
  printedDocuments: string[];
  /** The documents main opened in its hidden inspector window (accessibility, compare), and the URLs they asked for. */
  inspectedDocuments: string[];
  inspectorRequests: string[];
  close(): Promise<void>;
}

const RENDERER_DIR = resolve('out/renderer');

/**
 * The built renderer on 127.0.0.1, answered by whatever main's wiring
 * registered for the app:// protocol (wireReady, below), once it has.
 */
async function serveRenderer(protocolHandler: () => ((request: { url: string }) => Promise<Response>) | null): Promise<{ server: Server; origin: string }> {
  const server = createServer(async (request, response) => {
    const handler = protocolHandler();
    if (!handler) return void response.writeHead(503).end();
    const answer = await handler({ url: `${APP_ORIGIN}${new URL(request.url ?? '/', 'http://x').pathname}` });
    response.writeHead(answer.status, Object.fromEntries(answer.headers.entries())).end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return { server, origin: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

/** The page-side half of the transport, then the preload's own builder. */
function bridgeScript(): string {
  // Electron runs the preload in the app's own page only: not in the email's frames, nor in the about:blank a new tab starts on.
  return `(() => {
    if (window !== window.top || location.protocol === 'about:') return;
    const listeners = new Map();
    const invoke = window.__inboxDeskInvoke;
    const ipc = {
      invoke: (channel, arg) => invoke(channel, arg),
      on: (channel, listener) => {
        if (!listeners.has(channel)) listeners.set(channel, new Set());
        listeners.get(channel).add(listener);
      },
      removeListener: (channel, listener) => listeners.get(channel)?.delete(listener),
    };
    Object.defineProperty(window, '__inboxDeskEmit', {
      value: (channel, payload) => listeners.get(channel)?.forEach((listener) => listener({}, payload)),
    });
    const buildWindowApi = ${buildWindowApi.toString()};
    Object.defineProperty(window, 'api', { value: buildWindowApi(ipc, ${JSON.stringify(BRIDGE_SPEC)}) });
  })();`;
}

export async function openApp(browser: Browser, options: OpenAppOptions): Promise<AppHandle> {
  let protocolHandler: ((request: { url: string }) => Promise<Response>) | null = null;
  const { server, origin } = await serveRenderer(() => protocolHandler);
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'inbox-desk-host-')));
  const snapshots = await ListSnapshots.load(join(dataDir, 'first-screen.json'));
  const settingsPath = join(dataDir, 'settings.json');
  const accounts = await AccountManager.load(settingsPath, new TokenVault(testCipher(!options.noKeyring)));
  if (!('demo' in options)) {
    // An earlier run's folder: its account is kept (its token sealed again, as this run's keyring is new).
    const earlier = accounts.summaries().find((a) => a.baseUrl === options.baseUrl.replace(/\/+$/, ''));
    await accounts.save({
      ...(earlier ? { id: earlier.id } : {}),
      name: options.name ?? 'Test account',
      baseUrl: options.baseUrl,
      teamId: options.teamId,
      token: options.token,
      flavor: options.flavor,
    });
  }
  const workerPath = resolve('src/main/local-service-worker.ts');
  const demo = demoService(resolve('resources'), workerPath, { smtp: options.demoSmtp === true });
  // The catcher as main runs it, on a free port and a folder of this test's.
  const catcherSettings = await accounts.updateCatcher({ enabled: options.catcher !== undefined, port: 0, apiPort: 0, ...options.catcher?.settings });
  const catcher = new Catcher({ workerPath, dataDir: join(dataDir, 'catcher') }, catcherSettings, accounts.catcherHasPassword);
  catcher.setRelay(accounts.relayConfig());
  await catcher.apply(catcherSettings, accounts.catcherPassword(), accounts.catcherHasPassword);
  if (options.catcher?.show) await accounts.setActive(CATCHER_ID);
  const transcript: string[] = [];
  const calls: string[] = [];
  const blockedRequests: string[] = [];
  /** A request beyond the app's files: it reaches only the origins the test lets through. */
  const passOrRefuse = (route: Route) =>
    options.passThrough?.some((allowed) => route.request().url().startsWith(`${allowed}/`)) ? route.continue() : route.abort('blockedbyclient');
  const printed: string[] = [];
  const printedDocuments: string[] = [];
  const printRequests: string[] = [];
  const inspectedDocuments: string[] = [];
  const inspectorRequests: string[] = [];
  const openedExternally: string[] = [];
  const consentAsked: string[] = [];
  const notifications: string[] = [];
  const notificationButtons: AppHandle['notificationButtons'] = [];
  const shortcuts = new Map<string, () => void>();
  let consentAnswer = options.consent === true;
  let page: Page | null = null;

  const emit = <E extends EventName>(event: E, payload: Events[E]) => {
    transcript.push(JSON.stringify({ event, payload }));
    void page
      ?.evaluate(([channel, data]) => (window as unknown as { __inboxDeskEmit: (c: string, p: unknown) => void }).__inboxDeskEmit(channel as string, data), [
        eventChannel(event),
        payload,
      ] as const)
      .catch(() => undefined);
  };

  // Main's own desktop services (app-wiring.ts) over stand-ins for the native dialogs, the
  // shell and the clipboard: the consent box answers as the test says, the save box picks the data folder.
  const window = { isMinimized: () => false, restore: () => undefined, focus: () => undefined, show: () => undefined };
  const desktop: DesktopLike<typeof window> = {
    mainWindow: () => window,
    dialog: {
      showMessageBox: async (_w, box) => {
        consentAsked.push(box.message);
        return { response: consentAnswer ? 1 : 0 };
      },
      showMessageBoxSync: () => 0,
      showSaveDialog: async (_w, { defaultPath }) => ({ canceled: false, filePath: join(dataDir, basename(defaultPath)) }),
    },
    shell: { openExternal: async (url) => void openedExternally.push(url) },
    clipboard: {
      writeText: (text) => {
        handle.clipboard = text;
      },
    },
    notification: ({ title, body, action }) => {
      notifications.push(`${title}: ${body}`);
      notificationButtons.push({ title, body, action: action ?? null });
    },
    downloadsDir: '/downloads',
    writeFile: (path, bytes) => writeFile(path, bytes),
    // The hidden print window: a page of its own with scripts off, as main's BrowserWindow has them.
    printer: {
      open: async (document) => {
        const printContext = await browser.newContext({ javaScriptEnabled: false });
        await printContext.route('**/*', (route) => {
          printRequests.push(route.request().url());
          return passOrRefuse(route);
        });
        const printPage = await printContext.newPage();
        await printPage.setContent(document, { waitUntil: 'load' });
        return {
          print: async () => {
            printedDocuments.push(document);
            printed.push(await printPage.innerText('body'));
            return true;
          },
          pdf: () => printPage.pdf(),
          close: () => void printContext.close(),
        };
      },
    },
  };
  let tray: SystemTray | null = null;
  const handlers = createHandlers({
    accounts,
    app: { name: 'Inbox Desk', version: 'test', platform: process.platform },
    emit,
    mail: { startDemo: demo.start, catcher, http: options.http, pollIntervalMs: options.pollIntervalMs },
    desktop: {
      ...desktopServices(desktop),
      installUpdate: () => {
        handle.installUpdateCalls += 1;
      },
      setMenuKeys: (keys) => void handle.menuKeys.push(keys),
      setBadgeCount: (count) => {
        handle.badgeCount = count;
      },
      // Electron's globalShortcut: registering fails where another app holds the keys.
      shortcuts: {
        register: (accelerator, run) => {
          if (options.takenShortcuts?.includes(accelerator) || shortcuts.has(accelerator)) return false;
          shortcuts.set(accelerator, run);
          return true;
        },
        unregister: (accelerator) => void shortcuts.delete(accelerator),
      },
      onLoopState: (state) => tray?.show(state),
    },
    kept: { snapshots },
    bench: {
      compatWorker: resolve('src/main/compat-worker.ts'),
      axeSource: () => readFile(resolve('node_modules/axe-core/axe.min.js'), 'utf8'),
      // Main's hidden inspector window: a page of its own, its requests recorded (and refused beyond
      // this machine); main's scripts run beside the document as Electron's isolated world runs them.
      inspector: async (html, width) => {
        inspectedDocuments.push(html);
        const inspectContext = await browser.newContext({ viewport: { width, height: 800 } });
        await inspectContext.route('**/*', (route) => {
          inspectorRequests.push(route.request().url());
          return passOrRefuse(route);
        });
        const inspectPage = await inspectContext.newPage();
        await inspectPage.setContent(html, { waitUntil: 'load' });
        const height = await inspectPage.evaluate(() => document.documentElement.scrollHeight);
        await inspectPage.setViewportSize({ width, height: Math.min(6000, Math.max(200, height)) });
        return {
          evaluate: (script) => inspectPage.evaluate(script),
          screenshot: () => inspectPage.screenshot({ fullPage: false }),
          close: () => void inspectContext.close(),
        };
      },
    },
  });
  // Main's tray glue (tray.ts) over a stand-in Tray and Menu.
  let trayShown: AppHandle['tray'] = null;
  tray = systemTray(
    {
      make: () => {
        const shown = { title: '', tooltip: '', items: [] as NonNullable<AppHandle['tray']>['items'] };
        trayShown = shown;
        return {
          setToolTip: (text) => void (shown.tooltip = text),
          setTitle: (title) => void (shown.title = title),
          setContextMenu: (menu) => void (shown.items = menu as typeof shown.items),
          destroy: () => void (trayShown = null),
        };
      },
      menu: (items) => items,
    },
    {
      'copy-newest': () => void handlers.loop.copyNewest(),
      'new-address': () => void handlers.loop.newAddress().catch(() => undefined),
      show: () => undefined,
      quit: () => undefined,
    },
  );
  tray.show(handlers.loop.state);

  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 }, colorScheme: options.colorScheme ?? 'light' });
  // The renderer makes no requests of its own: anything beyond its files is refused and noted.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`)) return options.missingFiles?.test(url) ? route.abort('failed') : route.continue();
    blockedRequests.push(url);
    return passOrRefuse(route);
  });
  // Main's own IPC wiring (src/main/ipc.ts), sender check included, behind a stand-in for ipcMain.
  // Main's own wiring (src/main/app-wiring.ts): the same IPC registration, sender check
  // included, and the same app:// answers, behind stand-ins for ipcMain and the protocol.
  const registered = new Map<string, Parameters<IpcRegistry['handle']>[1]>();
  let pending = 0;
  wireReady(
    { on: () => undefined, quit: () => undefined },
    {
      ipcMain: { handle: (channel, listener) => void registered.set(channel, listener) },
      protocol: { handle: (_scheme, handler) => void (protocolHandler = handler) },
      handlers,
      rendererDir: RENDERER_DIR,
      devServerUrl: origin,
      onWillQuit: () => undefined,
    },
  );
  await context.exposeBinding('__inboxDeskInvoke', async (source, channel: unknown, arg: unknown) => {
    const frame = source.frame;
    const listener = typeof channel === 'string' ? registered.get(channel) : undefined;
    if (!listener) return { ok: false, error: { kind: 'bad-request', message: 'Unknown call.', details: {} } };
    calls.push(String(channel).slice(BRIDGE_SPEC.invokePrefix.length));
    pending += 1;
    try {
      const envelope = await listener({ senderFrame: { url: frame.url(), parent: frame.parentFrame() } }, arg);
      transcript.push(JSON.stringify(envelope));
      return envelope;
    } finally {
      pending -= 1;
    }
  });
  await context.addInitScript({ content: bridgeScript() });
  if (options.initScript) await context.addInitScript({ content: options.initScript });
  page = await context.newPage();
  await page.goto(`${origin}/index.html`);

  const handle: AppHandle = {
    page,
    context,
    handlers,
    accounts,
    transcript,
    calls,
    pendingCalls: () => pending,
    blockedRequests,
    printed,
    printRequests,
    inspectedDocuments,
    inspectorRequests,
    printedDocuments,
    openedExternally,
    consentAsked,
    answerConsent: (yes) => {
      consentAnswer = yes;
    },
    emit,
    installUpdateCalls: 0,
    menuKeys: [],
    notifications,
    notificationButtons,
    pressGlobalShortcut: (accelerator) => {
      const run = shortcuts.get(accelerator);
      run?.();
      return run !== undefined;
    },
    globalShortcuts: () => [...shortcuts.keys()],
    get tray() {
      return trayShown;
    },
    badgeCount: null,
    clipboard: null,
    settingsPath,
    demoSmtpPort: () => demo.smtp()?.port ?? null,
    catcherSmtpPort: () => catcher.state.smtp?.port ?? null,
    catcher,
    dataDir,
    async close() {
      // Calls still on their way (a settings write) finish before their folder goes.
      for (let i = 0; i < 100 && pending > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      handlers.dispose();
      await context.close();
      await new Promise<void>((r) => server.close(() => r()));
      await demo.stop();
      await catcher.stop();
      await snapshots.flush();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
  return handle;
}
