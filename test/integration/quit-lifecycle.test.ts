/**
 * Quitting never loses a confirmed write. A model-based test of the app's
 * lifecycle: random sequences of delete (with its undo window), undo, star,
 * a rule left unsaved or saved, the undo window running out, quit (the close
 * guard answering "Keep editing" or "Close anyway"), SIGTERM, and a crash,
 * run through main's real handlers and the real wiring on a stand-in for
 * Electron's quit sequence (before-quit, then each window's close, then
 * will-quit), against a real reference service. After every clean exit, and
 * after a crash once the app has started again, the server's mail must be
 * the model's: every delete not undone is gone, every undone one was never
 * sent (its access log), every star is as left.
 */
import { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountManager } from '../../src/main/account/accounts.ts';
import { TokenVault } from '../../src/main/account/vault.ts';
import { closeGuard, wireReady, type AppLike } from '../../src/main/app-wiring.ts';
import { dispatch, type Handlers } from '../../src/main/handlers.ts';
import { startReferenceService, type AccessLogEntry, type RunningService } from '../../src/server/index.ts';
import { testCipher } from '../support/cipher.ts';
import { mainHandlers } from '../support/main-handlers.ts';
import { rawMail } from '../support/mail.ts';

const EMAILS = 5;
type Op =
  | { op: 'delete' | 'undo' | 'star'; pick: number }
  | { op: 'draft'; unsaved: boolean }
  | { op: 'quit'; keepEditing: boolean }
  | { op: 'sigterm' | 'crash' | 'undo-window-ends' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constantFrom('delete' as const, 'undo' as const, 'star' as const), pick: fc.nat(EMAILS - 1) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('draft' as const), unsaved: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('quit' as const), keepEditing: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constantFrom('sigterm' as const, 'crash' as const, 'undo-window-ends' as const) }) },
);

/** Timers the test moves by hand: the undo window ends when the sequence says so. */
function manualClock() {
  const timers = new Set<() => void>();
  return {
    setTimer: (run: () => void, _ms: number) => {
      timers.add(run);
      return () => void timers.delete(run);
    },
    fireAll: () => {
      const due = [...timers];
      timers.clear();
      for (const run of due) run();
    },
    drop: () => timers.clear(),
  };
}

/** Electron's quit, in its order: before-quit (may be held), every window's close (may be refused: the quit is off), will-quit, gone. */
function standInElectron(closeWindow: () => boolean) {
  const events = new EventEmitter();
  const signals = new EventEmitter();
  // held: a before-quit listener is finishing something and will quit again.
  const state = { exited: false, held: false };
  const quit = () => {
    if (state.exited) return;
    let held = false;
    events.emit('before-quit', { preventDefault: () => (held = true) });
    state.held = held;
    if (held || !closeWindow()) return;
    events.emit('will-quit');
    state.exited = true;
  };
  const app = { on: (event: string, listener: (...args: unknown[]) => void) => events.on(event, listener), quit } as unknown as AppLike;
  return { app, quit, state, signal: (name: string) => signals.emit(name), onSignal: (name: string, listener: () => void) => void signals.on(name, listener) };
}

describe('quitting never loses a confirmed write (a model of the lifecycle against the server)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'inbox-desk-quit-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function runSequence(ops: Op[], run: number): Promise<void> {
    const log: AccessLogEntry[] = [];
    const service: RunningService = await startReferenceService({ teams: [{ id: 'q', token: 'quit-token' }], rateLimit: 0, onResponse: (entry) => log.push(entry) });
    const home = join(dir, `run-${run}`);
    const cipher = testCipher();
    const ids: string[] = [];
    for (let i = 0; i < EMAILS; i++) ids.push((await service.inject(rawMail({ subject: `Mail ${i}` })))[0]!);
    // The model: what the server must hold once the app has done what it was asked.
    const model = { deleted: new Set<string>(), waiting: new Set<string>(), undone: new Set<string>(), starred: new Set<string>(), unsaved: false };

    let keepEditing = false;
    let handlers!: Handlers;
    let electron!: ReturnType<typeof standInElectron>;
    let clock!: ReturnType<typeof manualClock>;
    const start = async () => {
      clock = manualClock();
      const accounts = await AccountManager.load(join(home, 'settings.json'), new TokenVault(cipher));
      handlers = mainHandlers(accounts, { kept: { pendingDeletesPath: join(home, 'pending-deletes.json') }, setTimer: clock.setTimer });
      electron = standInElectron(closeGuard({ mainWindow: () => ({}), dialog: { showMessageBoxSync: () => (keepEditing ? 0 : 1) } as never }, handlers.unsavedDraft));
      wireReady(electron.app, { ipcMain: { handle: () => undefined }, protocol: { handle: () => undefined }, handlers, rendererDir: '/nowhere', onWillQuit: () => undefined, onSignal: electron.onSignal });
      if (accounts.summaries().length === 0) {
        const saved = await dispatch(handlers, 'saveAccount', { name: 'Q', baseUrl: service.baseUrl, teamId: 'q', token: 'quit-token' });
        expect(saved.ok).toBe(true);
      }
      await handlers.resumeDeletes();
      model.unsaved = false;
    };
    /** What the server holds now, against the model (deletes still in their window are not due yet). */
    const serverAgrees = async (when: string) => {
      const listed = (await (await fetch(`${service.baseUrl}/api/teams/q/emails?limit=100`, { headers: { Authorization: 'Bearer quit-token' } })).json()) as { data: { id: string; favorite: boolean }[] };
      const expected = ids.filter((id) => !model.deleted.has(id) && !model.waiting.has(id));
      expect(listed.data.map((e) => e.id).filter((id) => !model.waiting.has(id)).sort(), `${when}: the mail left`).toEqual(expected.sort());
      for (const email of listed.data) expect(email.favorite, `${when}: the star of ${email.id}`).toBe(model.starred.has(email.id));
      const sentDeletes = log.filter((entry) => entry.method === 'DELETE' && /\/emails\/[^/]+$/.test(entry.url)).map((entry) => entry.url.split('/').pop()!);
      for (const id of model.undone) if (!model.deleted.has(id)) expect(sentDeletes, `${when}: an undone delete never reaches the server`).not.toContain(id);
    };
    const settle = async () => {
      for (let i = 0; i < 500 && electron.state.held; i++) await new Promise((resolve) => setTimeout(resolve, 2));
      expect(electron.state.held, 'a held quit goes on by itself').toBe(false);
    };
    const afterExit = async (how: string) => {
      // A clean exit: every confirmed delete is on the server already, not only after the next start.
      for (const id of model.waiting) model.deleted.add(id);
      model.waiting.clear();
      await serverAgrees(`after ${how}`);
      await start();
    };

    await start();
    try {
      for (const step of ops) {
        const id = 'pick' in step ? ids[step.pick]! : '';
        if (step.op === 'delete') {
          if (model.deleted.has(id) || model.waiting.has(id)) continue;
          expect((await dispatch(handlers, 'deleteEmail', { id, undoMs: 5_000 })).ok).toBe(true);
          model.waiting.add(id);
        } else if (step.op === 'undo') {
          const answer = await dispatch(handlers, 'undoDelete', { id });
          const undone = answer.ok && (answer.value as { undone: boolean }).undone;
          expect(undone, 'undo answers whether the delete was still waiting').toBe(model.waiting.has(id));
          if (undone) {
            model.waiting.delete(id);
            model.undone.add(id);
          }
        } else if (step.op === 'star') {
          if (model.deleted.has(id) || model.waiting.has(id)) continue;
          const favorite = !model.starred.has(id);
          expect((await dispatch(handlers, 'setFavorite', { id, favorite })).ok).toBe(true);
          if (favorite) model.starred.add(id);
          else model.starred.delete(id);
        } else if (step.op === 'draft') {
          await dispatch(handlers, 'reportUnsaved', { title: step.unsaved ? 'Invoices, renamed' : null });
          model.unsaved = step.unsaved;
        } else if (step.op === 'undo-window-ends') {
          clock.fireAll();
          await new Promise((resolve) => setTimeout(resolve, 20));
          for (const waiting of model.waiting) model.deleted.add(waiting);
          model.waiting.clear();
        } else if (step.op === 'quit' || step.op === 'sigterm') {
          keepEditing = step.op === 'quit' ? step.keepEditing : false;
          if (step.op === 'quit') electron.quit();
          else electron.signal('SIGTERM');
          await settle();
          // Held for the deletes, they were sent even when the close guard then kept the app open.
          for (const waiting of model.waiting) model.deleted.add(waiting);
          model.waiting.clear();
          await serverAgrees(`after ${step.op}${keepEditing && model.unsaved ? ', kept open' : ''}`);
          if (electron.state.exited) await afterExit(step.op);
          else expect(model.unsaved && keepEditing, 'only the close guard keeps the app open').toBe(true);
        } else if (step.op === 'crash') {
          // Gone without an event: nothing flushed, timers lost; the journal is what survives.
          clock.drop();
          handlers.poller.stop();
          for (const waiting of model.waiting) model.deleted.add(waiting);
          model.waiting.clear();
          await start();
          await serverAgrees('after a crash and a new start');
        }
      }
      keepEditing = false;
      electron.quit();
      await settle();
      for (const waiting of model.waiting) model.deleted.add(waiting);
      model.waiting.clear();
      expect(electron.state.exited).toBe(true);
      await serverAgrees('at the last quit');
    } finally {
      handlers.dispose();
      await service.close();
    }
  }

  it('keeps the server in step with the model over 150 random lifecycles', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 25 }), (ops) => runSequence(ops, run++)),
      { numRuns: 150, seed: 29, endOnFailure: true },
    );
  }, 240_000);

  it('the sequence that lost a delete: quit, Keep editing, delete, quit again within the undo window', async () => {
    await runSequence(
      [
        { op: 'draft', unsaved: true },
        { op: 'quit', keepEditing: true },
        { op: 'delete', pick: 1 },
        { op: 'quit', keepEditing: true },
        { op: 'delete', pick: 2 },
        { op: 'draft', unsaved: false },
        { op: 'quit', keepEditing: false },
      ],
      10_000,
    );
  }, 30_000);
});
