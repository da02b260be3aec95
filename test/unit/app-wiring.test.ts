/**
 * The very wiring index.ts hands Electron's objects to, run with fakes
 * (issue 22): one handler per contract method taken only from the app's own
 * top frame, the renderer served on app:// with its headers, guards on every
 * web contents, the quit path sending waiting deletes, a second start
 * bringing the window back, quitting with the last window but on macOS.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { wireEarly, wireReady, type AppLike } from '../../src/main/app-wiring.ts';
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
    unsavedDraft: () => null,
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

  it('guards every web contents, brings the window back on a second start, and quits with the last window but on macOS', () => {
    for (const platform of ['linux', 'darwin']) {
      const { app, emitter, quit } = fakeApp();
      const window = { isMinimized: () => true, restore: vi.fn(), focus: vi.fn() };
      wireEarly(app, { platform, mainWindow: () => window });
      const listeners: string[] = [];
      const contents = {
        on: (event: string) => void listeners.push(event),
        setWindowOpenHandler: vi.fn(),
        session: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() },
      };
      emitter.emit('web-contents-created', {}, contents);
      expect(listeners).toEqual(expect.arrayContaining(['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview']));
      expect(contents.setWindowOpenHandler).toHaveBeenCalled();
      expect(contents.session.setPermissionRequestHandler).toHaveBeenCalled();
      emitter.emit('second-instance');
      expect(window.restore).toHaveBeenCalled();
      expect(window.focus).toHaveBeenCalled();
      emitter.emit('window-all-closed');
      expect(quit).toHaveBeenCalledTimes(platform === 'darwin' ? 0 : 1);
    }
  });
});
