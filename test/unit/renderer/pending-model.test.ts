/**
 * The pending writes against a plain model (issue 41): random runs of #, z, s,
 * refreshes, polls, time passing, and a service that refuses a DELETE, hangs
 * one and answers it late (taken or refused), or answers a list late, on the
 * real store over the fake main. After every step the screen is held to what
 * the user was told: an email is shown exactly when the server has it and the
 * user's delete of it is not standing (never undone, never refused); a star
 * shows what the user set while the server took it, and what the server has
 * once a write was refused; every refusal was told in a notice. What the
 * server got is the fake main's own log. Fixed seeds, plus a fresh one each
 * run, printed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BridgeError } from '../../../src/shared/contract.ts';
import { UNDO_MS } from '../../../src/shared/domain/settings.ts';
import { createAppStore, type AppState } from '../../../src/renderer/src/store.ts';
import { email, fakeMain, settle } from './fake-main.ts';

type Step =
  | { op: 'delete'; row: number }
  | { op: 'undo' }
  | { op: 'deleteAll' }
  | { op: 'star'; row: number }
  | { op: 'refresh' }
  | { op: 'poll'; late: boolean }
  | { op: 'wait'; ms: number }
  | { op: 'refuseNextDelete' }
  | { op: 'hangNextDelete' }
  | { op: 'answerHung'; ok: boolean }
  | { op: 'slowRefresh' }
  | { op: 'releaseList' }
  | { op: 'switch' }
  | { op: 'quit' }
  | { op: 'kill' }
  | { op: 'restart' };

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('delete' as const), row: fc.nat(7) }) },
  { weight: 2, arbitrary: fc.constant({ op: 'undo' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'deleteAll' as const }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('star' as const), row: fc.nat(7) }) },
  { weight: 2, arbitrary: fc.constant({ op: 'refresh' as const }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('poll' as const), late: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('wait' as const), ms: fc.oneof(fc.constant(0), fc.integer({ min: 100, max: 3000 }), fc.constant(UNDO_MS + 600)) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'refuseNextDelete' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'hangNextDelete' as const }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('answerHung' as const), ok: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ op: 'slowRefresh' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'releaseList' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'switch' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'quit' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'kill' as const }) },
  { weight: 1, arbitrary: fc.constant({ op: 'restart' as const }) },
);

const refused = (message: string): BridgeError => ({ kind: 'server', message, details: {} });

async function run(steps: Step[]): Promise<void> {
  // Two accounts, each its own server's mail.
  const main = fakeMain({ emails: Array.from({ length: 8 }, (_, i) => email(i + 1)), accounts: { b: Array.from({ length: 6 }, (_, i) => email(i + 101)) } });
  // The model: the user's standing deletes (asked, not undone, not refused), and the stars they set.
  const standing = new Set<string>();
  /** A delete-all standing, per account: every email of it that arrived by this moment. */
  const standingAll = new Map<string, string>();
  const starred = new Map<string, boolean>();
  let refusals = 0;
  // Undo answered by main: the delete no longer stands (the fake main's own answer, as the log says).
  const call = main.effects.call;
  main.effects.call = (async (method: string, arg: unknown) => {
    const answer = await (call as (m: string, a: unknown) => Promise<unknown>)(method, arg);
    if (method === 'undoDelete' && (answer as { undone: boolean }).undone) {
      const { id, kind } = arg as { id: string; kind?: string };
      if (kind === 'all') {
        for (const [account, through] of standingAll) if (through === id) standingAll.delete(account);
      } else standing.delete(id);
    }
    if (method === 'deleteAllEmails') standingAll.set(main.active(), (answer as { through: string }).through);
    return answer;
  }) as typeof call;
  // Made after the call is watched: the store keeps the call it was given. A quit makes a new one (the app started again).
  let store = createAppStore(main.effects);
  let alive = true;
  // Every error notice the user was shown (they leave by themselves after a while).
  // Notice ids count from 1 in each store (a quit makes a new one): told is per store.
  let told = new Set<number>();
  let notices = 0;
  const watchNotices = () =>
    store.subscribe((state) => {
      state.notices.forEach((n) => {
        if (env.MODEL_DEBUG && !told.has(n.id)) console.log('notice', n.tone, n.text);
        if (n.tone === 'error' && !told.has(n.id)) {
          told.add(n.id);
          notices += 1;
        }
      });
    });
  watchNotices();
  main.listen((event, { id, kind, error }) => {
    const forAll = kind === 'all' ? [...standingAll].find(([, through]) => through === id)?.[0] : undefined;
    if (forAll !== undefined) standingAll.delete(forAll);
    if (event === 'deleteFailed' && kind === 'email') standing.delete(id);
    // Sent as the app quit: the renderer that could say so is gone (main keeps the journal).
    if (!alive) return;
    const state = store.getState();
    if (event === 'deleteSettled') return state.deleteSettled(id, kind);
    refusals += 1;
    if (kind === 'all') return state.deleteAllFailed(id, error!);
    state.restoreDeleted(id, error);
  });
  let hung: ((error?: BridgeError) => void) | null = null;
  let slowList: (() => void) | null = null;
  const late: (() => void)[] = [];
  // As the app starts: main says which account is shown, and its list loads.
  const start = async () => {
    store.getState().setAccounts(await main.effects.call('getAccounts', undefined));
    await settle();
  };
  await start();
  const rows = () => store.getState().list?.data ?? [];
  const query = () => main.log.filter((c) => c.method === 'listEmails').at(-1)!.arg as Parameters<AppState['mergePolled']>[0];

  if (env.MODEL_DEBUG) console.log('RUN', JSON.stringify(steps));
  for (const [index, s] of steps.entries()) {
    if (env.MODEL_DEBUG) console.log('STEP', index, JSON.stringify(s));
    switch (s.op) {
      case 'delete': {
        const row = rows()[s.row];
        if (!row) break;
        const refusing = main.failing.deleteEmail !== undefined;
        await store.getState().deleteEmail(row.id);
        if (refusing) {
          refusals += 1;
          delete main.failing.deleteEmail;
        } else standing.add(row.id);
        break;
      }
      case 'undo':
        await store.getState().undoDelete();
        break;
      case 'deleteAll':
        await store.getState().deleteAll();
        break;
      case 'star': {
        const row = rows()[s.row];
        if (!row) break;
        // A killed service takes no star: the row keeps the server's, and a notice says so.
        // (Told by a notice, or by the outage banner when one already stands for every such failure.)
        if (main.down === main.active()) {
          if (store.getState().outage === null) refusals += 1;
        } else starred.set(row.id, !row.favorite);
        await store.getState().toggleFavorite(row.id);
        break;
      }
      case 'refresh':
        await store.getState().loadList({ fresh: true });
        break;
      case 'poll': {
        // Main's poll: the page as the server has it now, delivered now or after the next step (a killed service answers none).
        if (main.down === main.active()) break;
        const page = await main.effects.call('listEmails', query());
        const deliver = () => store.getState().mergePolled(query(), page);
        if (s.late) late.push(deliver);
        else deliver();
        break;
      }
      case 'wait':
        await main.clock.advance(s.ms);
        break;
      case 'refuseNextDelete':
        main.failing.deleteEmail = refused('This token may not delete mail.');
        break;
      case 'hangNextDelete':
        if (!hung) {
          const answer = main.hangNextDelete();
          hung = answer;
        }
        break;
      case 'answerHung':
        hung?.(s.ok ? undefined : refused('The server did not answer within 15 s.'));
        hung = null;
        break;
      case 'slowRefresh':
        // A refresh whose answer is read now and lands later (after writes, polls, time).
        // (A stopped service answers no list at all: nothing to hold.)
        if (!slowList && main.down !== main.active()) {
          slowList = main.holdAnswer('listEmails');
          void store.getState().loadList({ fresh: true });
        }
        break;
      case 'releaseList':
        slowList?.();
        slowList = null;
        break;
      case 'switch':
        // Lists of the account left answer into nothing: what is held is let go first.
        slowList?.();
        slowList = null;
        late.splice(0);
        await store.getState().switchAccount(main.active() === 'a' ? 'b' : 'a');
        break;
      case 'quit': {
        // Main sends what waits, the window goes; the app starts again on the same account and service.
        slowList?.();
        slowList = null;
        late.splice(0);
        hung?.();
        hung = null;
        alive = false;
        main.quit();
        await settle();
        store = createAppStore(main.effects);
        alive = true;
        told = new Set();
        watchNotices();
        await start();
        break;
      }
      case 'kill':
        main.down ??= main.active();
        break;
      case 'restart':
        if (main.down === main.active()) {
          main.down = null;
          // The user's refresh once the service answers again.
          await store.getState().loadList({ fresh: true });
        } else main.down = null;
        break;
    }
    if (s.op !== 'poll') for (const deliver of late.splice(0)) deliver();
    await settle();
    await settle();
    // What the user was told, against what is on screen.
    const onServer = new Map(main.emails.map((e) => [e.id, e]));
    const shown = rows().map((e) => e.id);
    const all = standingAll.get(main.active());
    const expected = [...onServer.values()]
      .filter((e) => !standing.has(e.id) && !(all !== undefined && Date.parse(e.created_at) <= Date.parse(all)))
      .sort((a, b) => b.created_at.localeCompare(a.created_at))
      .map((e) => e.id);
    const where = `step ${index} (${JSON.stringify(s)}) of ${JSON.stringify(steps.slice(0, index + 1))}`;
    // A list that has not answered yet may still show the page before it; a service that is down and
    // never gave this list says so instead; every other moment must agree.
    const unreachable = main.down === main.active() && store.getState().list === null;
    if (unreachable) expect(store.getState().listError?.message ?? store.getState().outage?.error.message, `${where}: why there is no list`).toMatch(/not answering/);
    else if (!slowList) expect(shown, `${where}: the rows`).toEqual(expected);
    for (const row of rows()) {
      const server = onServer.get(row.id)?.favorite ?? false;
      const wanted = starred.get(row.id);
      // A star shows what the user set (the server took it), or the server's own when a write was refused.
      expect(row.favorite, `${where}: the star of ${row.id}`).toBe(wanted ?? server);
      if (wanted !== undefined) expect(server, `${where}: the server's star of ${row.id}`).toBe(wanted);
    }
    expect(notices, `${where}: a notice for every refusal`).toBeGreaterThanOrEqual(refusals);
  }
}

const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env ?? {};

describe('the pending writes against a plain model (issue 41)', () => {
  // Runs it found once, kept as cases (the first four failed before their fixes in the inbox slice).
  const found: [string, Step[]][] = [
    ['a delete-all waiting in one account does not hide another account’s mail', [{ op: 'deleteAll' }, { op: 'wait', ms: 100 }, { op: 'switch' }]],
    ['a delete-all refused while the service is down leaves every email on screen, not an empty inbox', [{ op: 'kill' }, { op: 'deleteAll' }, { op: 'wait', ms: UNDO_MS + 600 }]],
    [
      'an email whose delete came back while a delete-all was refused is shown beside all the others',
      [{ op: 'delete', row: 0 }, { op: 'kill' }, { op: 'deleteAll' }, { op: 'wait', ms: UNDO_MS + 600 }],
    ],
    ['a star refused after one the server took keeps the one it took over an older list', [{ op: 'slowRefresh' }, { op: 'star', row: 0 }, { op: 'kill' }, { op: 'star', row: 0 }, { op: 'releaseList' }]],
    ['a delete refused after a quit is said in the new window', [{ op: 'delete', row: 0 }, { op: 'quit' }, { op: 'refuseNextDelete' }, { op: 'delete', row: 0 }]],
    ['a delete flushed by a switch and refused is said, and not put in the other account’s list', [{ op: 'delete', row: 0 }, { op: 'kill' }, { op: 'switch' }, { op: 'switch' }]],
  ];
  for (const [name, steps] of found) it(name, () => run(steps));

  // A counterexample replayed as printed: MODEL_STEPS='[{"op":"delete","row":0}, …]'.
  if (env.MODEL_STEPS) it('replays MODEL_STEPS', () => run(JSON.parse(env.MODEL_STEPS!) as Step[]));
  const fresh = Date.now() % 1_000_000;
  for (const seed of [41, 4141, 414141, fresh]) {
    it(`agrees with the model after every step, seed ${seed}`, async () => {
      console.log(`pending-model seed ${seed}`);
      await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 10, maxLength: 60 }), run), { seed, numRuns: Number(env.MODEL_RUNS ?? 40), timeout: 20_000 });
    }, 120_000);
  }
});
