/**
 * The lifecycle decisions index.ts wires to Electron's events (issue 22),
 * run with fakes: the quit path sends the deletes still waiting, and quits
 * once; a second start brings the window back; a draft asks before closing.
 */
import { describe, expect, it, vi } from 'vitest';
import { PendingDeletes } from '../../src/main/pending-deletes.ts';
import { openHidden } from '../../src/main/hidden-window.ts';
import { ServiceError } from '../../src/main/api/errors.ts';
import { flushBeforeQuit, focusExisting, mayClose } from '../../src/main/lifecycle.ts';

describe('quitting', () => {
  it('holds a quit until waiting deletes are sent, then quits once; with none waiting, a quit goes through', async () => {
    const sent: string[] = [];
    const pending = new PendingDeletes({ send: async (entry) => void sent.push(`DELETE ${entry.id}`), onRefused: () => undefined });
    await pending.schedule({ key: 'email:1', account: 'a', kind: 'email', id: '1' }, 60_000);
    await pending.schedule({ key: 'email:2', account: 'a', kind: 'email', id: '2' }, 60_000);
    const quit = vi.fn();
    const onBeforeQuit = flushBeforeQuit(() => pending.waitingCount, () => pending.flush(), quit);
    const first = { preventDefault: vi.fn() };
    onBeforeQuit(first);
    expect(first.preventDefault).toHaveBeenCalled();
    // A second quit while sending waits for the same sending.
    const second = { preventDefault: vi.fn() };
    onBeforeQuit(second);
    expect(second.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(quit).toHaveBeenCalledTimes(1));
    expect(sent.sort()).toEqual(['DELETE 1', 'DELETE 2']);
    // The quit that follows goes through.
    const last = { preventDefault: vi.fn() };
    onBeforeQuit(last);
    expect(last.preventDefault).not.toHaveBeenCalled();
    expect(quit).toHaveBeenCalledTimes(1);
  });
});

describe('a second start', () => {
  it('tells how each waiting delete went once the server answered: taken (or already gone) or refused, never before', async () => {
    const told: string[] = [];
    const timers: (() => void)[] = [];
    let answer!: (error?: Error) => void;
    const pending = new PendingDeletes({
      send: (entry) =>
        new Promise<void>((resolve, reject) => {
          answer = (error) => (error ? reject(error) : resolve());
          told.push(`sent ${entry.id}`);
        }),
      onRefused: (entry) => void told.push(`refused ${entry.id}`),
      onSent: (entry) => void told.push(`taken ${entry.id}`),
      setTimer: (run) => (timers.push(run), () => undefined),
    });
    await pending.schedule({ key: 'email:a', account: 'x', kind: 'email', id: 'a' }, 5000);
    timers.shift()!();
    // Sent, and still on its way: nothing is told yet.
    expect(told).toEqual(['sent a']);
    answer();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(told).toEqual(['sent a', 'taken a']);
    await pending.schedule({ key: 'email:b', account: 'x', kind: 'email', id: 'b' }, 5000);
    timers.shift()!();
    answer(new ServiceError('not-found', 'gone'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    await pending.schedule({ key: 'email:c', account: 'x', kind: 'email', id: 'c' }, 5000);
    timers.shift()!();
    answer(new ServiceError('server', 'The server hit an error (500).'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(told).toEqual(['sent a', 'taken a', 'sent b', 'taken b', 'sent c', 'refused c']);
  });

  it('closes a hidden window whose document failed to load, and hands a loaded one over open', async () => {
    const windows: { destroyed: boolean; destroy(): void }[] = [];
    const make = () => {
      const window = { destroyed: false, destroy: () => void (window.destroyed = true) };
      windows.push(window);
      return window;
    };
    for (let press = 0; press < 3; press++) {
      await expect(openHidden(make, async () => Promise.reject(new Error('ERR_FAILED (-2) loading file:///tmp/inbox-desk-inspect.html')))).rejects.toThrow(/ERR_FAILED/);
    }
    expect(windows.map((w) => w.destroyed)).toEqual([true, true, true]);
    const opened = await openHidden(make, async (window) => window);
    expect(opened.destroyed).toBe(false);
  });

  it('brings the window back, restored and focused', () => {
    const window = { isMinimized: () => true, restore: vi.fn(), focus: vi.fn() };
    focusExisting(window);
    expect(window.restore).toHaveBeenCalled();
    expect(window.focus).toHaveBeenCalled();
    expect(() => focusExisting(null)).not.toThrow();
  });
});

describe('closing with a draft', () => {
  it('asks only when a rule has unsaved changes, and keeps the window on Keep editing', () => {
    const ask = vi.fn(() => false);
    expect(mayClose(null, ask)).toBe(true);
    expect(ask).not.toHaveBeenCalled();
    expect(mayClose('Alerts, renamed', ask)).toBe(false);
    expect(ask).toHaveBeenCalledWith('Alerts, renamed');
    expect(mayClose('Alerts, renamed', () => true)).toBe(true);
  });
});

describe('the app:// protocol (rendererResponse, which the test host serves with too)', () => {
  it('answers the renderer’s files with their policies, and nothing outside the folder', async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const { rendererResponse } = await import('../../src/main/renderer-files.ts');
    const { CONTENT_SECURITY_POLICY } = await import('../../src/main/security.ts');
    const dir = await mkdtemp(join(tmpdir(), 'inbox-desk-renderer-'));
    try {
      await writeFile(join(dir, 'index.html'), '<!doctype html><p>app</p>');
      await writeFile(join(dir, 'email-frame.html'), '<!doctype html>');
      await writeFile(join(tmpdir(), 'secret.txt'), 'outside');
      const index = await rendererResponse(dir, 'app://inbox-desk/');
      expect(index.status).toBe(200);
      expect(index.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(index.headers.get('x-content-type-options')).toBe('nosniff');
      const frame = await rendererResponse(dir, 'app://inbox-desk/email-frame.html');
      expect(frame.headers.get('content-security-policy')).toMatch(/img-src data:;/);
      for (const url of ['app://inbox-desk/../secret.txt', 'app://inbox-desk/%2e%2e/secret.txt', 'app://elsewhere/index.html', 'app://inbox-desk/missing.js']) {
        expect((await rendererResponse(dir, url)).status, url).toBe(404);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
