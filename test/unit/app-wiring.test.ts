/**
 * The very wiring index.ts hands Electron's objects to, run with fakes
 * (issue 22): one handler per contract method taken only from the app's own
 * top frame, the renderer served on app:// with its headers, guards on every
 * web contents, the quit path sending waiting deletes, a second start
 * bringing the window back, quitting with the last window but on macOS, the
 * native dialogs, links, files and notifications, and the window's own life.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { closeGuard, desktopServices, wireEarly, wireReady, wireWindows, type AppLike, type DesktopLike, type MessageBox } from '../../src/main/app-wiring.ts';
import { ShownImages } from '../../src/main/qa/shown-images.ts';
import type { Handlers } from '../../src/main/handlers.ts';
import type { IpcRegistry } from '../../src/main/ipc.ts';
import { CONTENT_SECURITY_POLICY } from '../../src/main/security.ts';
import { METHODS, invokeChannel } from '../../src/shared/contract.ts';

function fakeApp() {
  const emitter = new EventEmitter();
  const quit = vi.fn();
  const app = { on: (event: string, listener: (...args: unknown[]) => void) => emitter.on(event, listener), quit } as unknown as AppLike;
  return { app, emitter, quit };
}

function fakeHandlers(flush: () => Promise<void> = async () => undefined): Handlers {
  return {
    table: { getAccounts: async () => ({ accounts: [], activeId: null, demo: true, encryptionAvailable: true, settingsRecovered: false }) } as unknown as Handlers['table'],
    secrets: () => [],
    dispose: vi.fn(),
    poller: {} as Handlers['poller'],
    flush,
    waitingDeletes: () => 1,
    resumeDeletes: async () => undefined,
    unsavedDraft: () => null,
    loop: {} as Handlers['loop'],
    shownImages: new ShownImages(),
  };
}

describe('the Electron glue, wired to fakes', () => {
  it('registers one IPC handler per contract method, served only to the app’s own top frame', async () => {
    const { app } = fakeApp();
    const registered = new Map<string, Parameters<IpcRegistry['handle']>[1]>();
    const protocol = { handle: vi.fn() };
    wireReady(app, { ipcMain: { handle: (c, l) => void registered.set(c, l) }, protocol, handlers: fakeHandlers(), rendererDir: '/nowhere', onWillQuit: () => undefined });
    expect([...registered.keys()].sort()).toEqual(METHODS.map((m) => invokeChannel(m)).sort());
    const getAccounts = registered.get(invokeChannel('getAccounts'))!;
    expect(await getAccounts({ senderFrame: { url: 'app://inbox-desk/index.html', parent: null } }, undefined)).toMatchObject({ ok: true });
    for (const frame of [{ url: 'app://inbox-desk/email-frame.html', parent: {} }, { url: 'https://evil.test/', parent: null }, null]) {
      expect(await getAccounts({ senderFrame: frame }, undefined), JSON.stringify(frame)).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    }
  });

  it('serves the built renderer on app:// with the app’s policy', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'inbox-desk-wiring-'));
    try {
      await writeFile(join(dir, 'index.html'), '<!doctype html>');
      const { app } = fakeApp();
      let served: ((request: { url: string }) => Promise<Response>) | null = null;
      wireReady(app, { ipcMain: { handle: () => undefined }, protocol: { handle: (scheme, handler) => void (scheme === 'app' && (served = handler)) }, handlers: fakeHandlers(), rendererDir: dir, onWillQuit: () => undefined });
      const answer = await served!({ url: 'app://inbox-desk/index.html' });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect((await served!({ url: 'app://inbox-desk/../../etc/passwd' })).status).toBe(404);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('serves an image main made for the renderer under shown/, byte for byte, and nothing it did not make', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'inbox-desk-wiring-'));
    try {
      const { app } = fakeApp();
      const handlers = fakeHandlers();
      let served: ((request: { url: string }) => Promise<Response>) | null = null;
      wireReady(app, { ipcMain: { handle: () => undefined }, protocol: { handle: (scheme, handler) => void (scheme === 'app' && (served = handler)) }, handlers, rendererDir: dir, onWillQuit: () => undefined });
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
      const path = handlers.shownImages.put(png);
      const answer = await served!({ url: `app://inbox-desk/${path}` });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await answer.arrayBuffer())).toEqual(png);
      expect((await served!({ url: 'app://inbox-desk/shown/00000000-0000-0000-0000-000000000000.png' })).status).toBe(404);
      // The newest four are kept: a fifth lets the first go.
      for (let i = 0; i < 4; i++) handlers.shownImages.put(png);
      expect((await served!({ url: `app://inbox-desk/${path}` })).status).toBe(404);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('sends waiting deletes before quitting, quits once, and lets go of everything after', async () => {
    const { app, emitter, quit } = fakeApp();
    const sent: string[] = [];
    const handlers = fakeHandlers(async () => void sent.push('DELETE the emails still in their undo window'));
    const onWillQuit = vi.fn();
    wireReady(app, { ipcMain: { handle: () => undefined }, protocol: { handle: () => undefined }, handlers, rendererDir: '/nowhere', onWillQuit });
    const event = { preventDefault: vi.fn() };
    emitter.emit('before-quit', event);
    expect(event.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(quit).toHaveBeenCalledTimes(1));
    expect(sent).toHaveLength(1);
    emitter.emit('will-quit');
    expect(handlers.dispose).toHaveBeenCalled();
    expect(onWillQuit).toHaveBeenCalled();
  });

  it('writes the first screen’s snapshot before the quit completes, new mail of a second ago included', async () => {
    const { ListSnapshots } = await import('../../src/main/list-snapshot.ts');
    const { readFile } = await import('node:fs/promises');
    const dir = await mkdtemp(join(tmpdir(), 'inbox-desk-quit-'));
    try {
      const path = join(dir, 'first-screen.json');
      const snapshots = await ListSnapshots.load(path);
      const { app, emitter, quit } = fakeApp();
      const handlers = { ...fakeHandlers(), waitingDeletes: () => 0 };
      wireReady(app, { ipcMain: { handle: () => undefined }, protocol: { handle: () => undefined }, handlers, rendererDir: '/nowhere', onWillQuit: () => undefined, snapshots });
      // New mail a second before quitting: its page is remembered, its write not due for another second.
      const page = { data: [], links: { first: null, last: null, prev: null, next: null }, meta: { current_page: 1, from: null, last_page: 1, path: '/emails', per_page: 25, to: null, total: 0 } };
      snapshots.remember('acme', { page: 1, limit: 25 }, page as never);
      const event = { preventDefault: vi.fn() };
      emitter.emit('before-quit', event);
      expect(event.preventDefault).toHaveBeenCalled();
      await vi.waitFor(() => expect(quit).toHaveBeenCalledTimes(1));
      const written = JSON.parse(await readFile(path, 'utf8')) as { accounts: Record<string, unknown> };
      expect(Object.keys(written.accounts)).toEqual(['acme']);
      // Nothing left to write: the next quit goes straight through.
      const again = { preventDefault: vi.fn() };
      emitter.emit('before-quit', again);
      expect(again.preventDefault).not.toHaveBeenCalled();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('guards every web contents, brings the window back on a second start, and quits with the last window but on macOS', () => {
    for (const platform of ['linux', 'darwin']) {
      const { app, emitter, quit } = fakeApp();
      const window = { isMinimized: () => true, restore: vi.fn(), focus: vi.fn() };
      wireEarly(app, { platform, mainWindow: () => window });
      // A web contents as Electron makes one: what it does when content tries to go somewhere, open a window, or ask a permission.
      const listeners = new Map<string, (event: { preventDefault(): void; url?: string; isMainFrame?: boolean }, url?: string) => void>();
      let openHandler: ((details: { url: string }) => { action: string }) | null = null;
      let permissions: ((contents: unknown, permission: string, callback: (granted: boolean) => void) => void) | null = null;
      const contents = {
        on: (event: string, listener: never) => void listeners.set(event, listener),
        setWindowOpenHandler: (handler: typeof openHandler) => void (openHandler = handler),
        session: { setPermissionRequestHandler: (handler: typeof permissions) => void (permissions = handler), setPermissionCheckHandler: vi.fn() },
      };
      emitter.emit('web-contents-created', {}, contents);
      const stopped = (event: string, url?: string, extra: object = {}) => {
        const preventDefault = vi.fn();
        listeners.get(event)?.({ preventDefault, ...(url ? { url } : {}), ...extra }, url);
        return preventDefault.mock.calls.length > 0;
      };
      // No navigation from content, no redirect, no webview; an email's frame may not leave for the web either.
      expect(stopped('will-navigate', 'https://evil.test/')).toBe(true);
      expect(stopped('will-redirect', 'https://evil.test/')).toBe(true);
      expect(stopped('will-attach-webview')).toBe(true);
      expect(stopped('will-frame-navigate', 'https://evil.test/', { isMainFrame: false })).toBe(true);
      expect(stopped('will-frame-navigate', 'app://inbox-desk/index.html', { isMainFrame: true })).toBe(true);
      // No new window, whatever the link; every permission asked is refused.
      expect(openHandler!({ url: 'https://evil.test/' })).toEqual({ action: 'deny' });
      const granted = vi.fn();
      permissions!({}, 'notifications', granted);
      expect(granted).toHaveBeenCalledWith(false);
      emitter.emit('second-instance');
      expect(window.restore).toHaveBeenCalled();
      expect(window.focus).toHaveBeenCalled();
      emitter.emit('window-all-closed');
      expect(quit).toHaveBeenCalledTimes(platform === 'darwin' ? 0 : 1);
    }
  });
});

interface FakeWindow {
  isMinimized(): boolean;
  restore(): void;
  focus(): void;
  show(): void;
  name: string;
}

function fakeDesktop(options: { response?: number; savePath?: string | null; window?: boolean; notifications?: boolean } = {}) {
  const window: FakeWindow = { name: 'main', isMinimized: () => false, restore: vi.fn(), focus: vi.fn(), show: vi.fn() };
  const boxes: { window: FakeWindow; options: MessageBox }[] = [];
  const saves: { window: FakeWindow; defaultPath: string }[] = [];
  const opened: string[] = [];
  const written: { path: string; bytes: Buffer }[] = [];
  const shown: { title: string; body: string; click: () => void; action?: { label: string; run: () => void } }[] = [];
  const copied: string[] = [];
  const desktop: DesktopLike<FakeWindow> = {
    mainWindow: () => (options.window === false ? null : window),
    dialog: {
      showMessageBox: async (w, o) => {
        boxes.push({ window: w, options: o });
        return { response: options.response ?? 0 };
      },
      showMessageBoxSync: (w, o) => {
        boxes.push({ window: w, options: o });
        return options.response ?? 0;
      },
      showSaveDialog: async (w, o) => {
        saves.push({ window: w, defaultPath: o.defaultPath });
        return options.savePath ? { canceled: false, filePath: options.savePath } : { canceled: true };
      },
    },
    shell: { openExternal: async (url) => void opened.push(url) },
    clipboard: { writeText: (text) => void copied.push(text) },
    notification: options.notifications === false ? undefined : (note) => void shown.push({ title: note.title, body: note.body, click: note.onClick, ...(note.action ? { action: note.action } : {}) }),
    downloadsDir: '/home/someone/Downloads',
    writeFile: async (path, bytes) => void written.push({ path, bytes }),
  };
  return { desktop, window, boxes, saves, opened, written, shown, copied };
}

const question = { kind: 'private-target' as const, title: 'Send a test to this machine?', message: 'It is local.', confirmLabel: 'Allow for this account' };

describe('the desktop services main’s handlers use, wired to fakes', () => {
  it('opens only web and mail links in the browser', async () => {
    const { desktop, opened } = fakeDesktop();
    const services = desktopServices(desktop);
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'app://inbox-desk/index.html', 'ms-settings:privacy', 'https://example.test/a b']) await services.openExternal(url);
    await services.openExternal('mailto:team@example.test');
    expect(opened).toEqual(['https://example.test/a%20b', 'mailto:team@example.test']);
  });

  it('asks consent in a native box over the window whose default is Cancel; only an explicit yes is yes, and no window is no', async () => {
    for (const [response, answer] of [[1, true], [0, false]] as const) {
      const { desktop, boxes, window } = fakeDesktop({ response });
      expect(await desktopServices(desktop).confirm(question)).toBe(answer);
      expect(boxes).toHaveLength(1);
      expect(boxes[0]!.window).toBe(window);
      expect(boxes[0]!.options).toMatchObject({ buttons: ['Cancel', 'Allow for this account'], defaultId: 0, cancelId: 0, message: question.title, detail: question.message });
    }
    const alone = fakeDesktop({ response: 1, window: false });
    expect(await desktopServices(alone.desktop).confirm(question)).toBe(false);
    expect(alone.boxes).toHaveLength(0);
  });

  it('saves exactly the bytes where the user chose, offered in Downloads, and nothing when cancelled', async () => {
    const bytes = Buffer.from('From: a\r\n\r\nbody\r\n');
    const chosen = fakeDesktop({ savePath: '/tmp/chosen.eml' });
    expect(await desktopServices(chosen.desktop).saveFile('Invoice.eml', bytes)).toBe('/tmp/chosen.eml');
    expect(chosen.saves).toEqual([{ window: chosen.window, defaultPath: '/home/someone/Downloads/Invoice.eml' }]);
    expect(chosen.written).toEqual([{ path: '/tmp/chosen.eml', bytes }]);
    const cancelled = fakeDesktop({ savePath: null });
    expect(await desktopServices(cancelled.desktop).saveFile('Invoice.eml', bytes)).toBeNull();
    expect(cancelled.written).toEqual([]);
  });

  it('a notification brings the window back when clicked, its Copy copies; none where the system has none; copies go to the clipboard', () => {
    const { desktop, shown, window, copied } = fakeDesktop();
    const services = desktopServices(desktop);
    services.notify!({ title: 'New mail from Ada', body: 'Your code', copy: '739204' });
    services.notify!({ title: 'New mail from Bo', body: 'Reset', copy: 'https://app.test/reset?t=1' });
    services.notify!({ title: 'New mail from Cy', body: 'Hello', copy: null });
    expect(shown.map((n) => [n.title, n.body, n.action?.label ?? null])).toEqual([
      ['New mail from Ada', 'Your code', 'Copy 739204'],
      ['New mail from Bo', 'Reset', 'Copy the link'],
      ['New mail from Cy', 'Hello', null],
    ]);
    shown[0]!.click();
    expect(window.show).toHaveBeenCalled();
    expect(copied).toEqual([]);
    shown[0]!.action!.run();
    shown[1]!.action!.run();
    services.copyText!('123456');
    expect(copied).toEqual(['739204', 'https://app.test/reset?t=1', '123456']);
    const quiet = fakeDesktop({ notifications: false });
    expect(() => desktopServices(quiet.desktop).notify!({ title: 't', body: 'b', copy: null })).not.toThrow();
  });

  it('prints in a hidden window and closes it whatever happens; a PDF is saved where the user chose', async () => {
    const events: string[] = [];
    const printer = (fail: boolean) => ({
      open: async (document: string) => {
        events.push(`open ${document}`);
        return {
          print: async () => {
            if (fail) throw new Error('printer gone');
            events.push('print');
            return true;
          },
          pdf: async () => Buffer.from('%PDF-1.7 fake'),
          close: () => void events.push('close'),
        };
      },
    });
    const chosen = fakeDesktop({ savePath: '/tmp/Invoice.pdf' });
    const services = desktopServices({ ...chosen.desktop, printer: printer(false) });
    expect(await services.print!('<p>doc</p>', 'print', 'Invoice.pdf')).toEqual({ printed: true, savedTo: null });
    expect(await services.print!('<p>doc</p>', 'pdf', 'Invoice.pdf')).toEqual({ printed: false, savedTo: '/tmp/Invoice.pdf' });
    expect(chosen.written.map((w) => w.bytes.toString())).toEqual(['%PDF-1.7 fake']);
    expect(events).toEqual(['open <p>doc</p>', 'print', 'close', 'open <p>doc</p>', 'close']);
    events.length = 0;
    await expect(desktopServices({ ...chosen.desktop, printer: printer(true) }).print!('<p>x</p>', 'print', 'x.pdf')).rejects.toThrow('printer gone');
    expect(events).toEqual(['open <p>x</p>', 'close']);
    expect(desktopServices(fakeDesktop().desktop).print).toBeUndefined();
  });

  it('closing with an unsaved rule asks, Keep editing (the default) keeps the window, Close anyway closes; no draft, no question', () => {
    let draft: string | null = null;
    const keep = fakeDesktop({ response: 0 });
    expect(closeGuard(keep.desktop, () => draft)()).toBe(true);
    expect(keep.boxes).toHaveLength(0);
    draft = 'Invoices to accounting';
    expect(closeGuard(keep.desktop, () => draft)()).toBe(false);
    expect(keep.boxes[0]!.options).toMatchObject({ message: '“Invoices to accounting” has changes that are not saved.', buttons: ['Keep editing', 'Close anyway'], defaultId: 0 });
    const close = fakeDesktop({ response: 1 });
    expect(closeGuard(close.desktop, () => draft)()).toBe(true);
  });

  it('opens the window, forgets it when closed, and opens it again from the dock only when there is none', () => {
    const { app, emitter } = fakeApp();
    let current: EventEmitter | null = null;
    const windows: EventEmitter[] = [];
    wireWindows(app, {
      open: () => {
        const window = new EventEmitter();
        windows.push(window);
        return window as unknown as { on(event: 'closed', listener: () => void): unknown };
      },
      windowCount: () => (current ? 1 : 0),
      setMainWindow: (window) => (current = window as unknown as EventEmitter | null),
    });
    expect(windows).toHaveLength(1);
    expect(current).toBe(windows[0]);
    emitter.emit('activate');
    expect(windows).toHaveLength(1);
    windows[0]!.emit('closed');
    expect(current).toBeNull();
    emitter.emit('activate');
    expect(windows).toHaveLength(2);
    expect(current).toBe(windows[1]);
  });
});
