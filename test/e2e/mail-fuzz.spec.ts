import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { CDPSession, Page } from '@playwright/test';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { fuzzMessages } from '../support/mime-fuzz.ts';
import type { AppHandle, OpenAppOptions } from './host.ts';
import { expect, test } from './fixtures.ts';

/**
 * No email breaks the app, whatever it holds: generated mail (test/support/mime-fuzz.ts)
 * opened one after another through the real renderer, each driven through every view
 * and tool key. After each key the app must still be mounted with its list, no part may
 * have fallen back to its error message, and nothing may have been fetched: not by the
 * page, not by the hidden print page, not by main (every fetchable URL in the mail points
 * at a server of this test's). Keys answer: the renderer's main thread spends at most
 * 100 ms of CPU on each key, from the key to its next frame, at p95 for every key (CPU
 * time, read from Chromium's own counter, so the other test worker's load on the second
 * core does not count against the app), and no key's frame comes a second late, a hang
 * whatever the load.
 *
 * CI runs FUZZ_CASES (40) cases for each of five seeds. The long run, documented in
 * CONTRIBUTING.md:  FUZZ_CASES=1000 FUZZ_SEEDS=1,2,3,4,5,6,7,8,9,10 npx playwright test mail-fuzz
 * A case that fails prints its X-Fuzz-Case and its bytes: saved under test/fixtures/fuzz-cases/,
 * it is replayed on every run from then on.
 */
const CASES = Number(process.env.FUZZ_CASES ?? 40);
const SEEDS = (process.env.FUZZ_SEEDS ?? '29,2911,291100,29110000,2911000000').split(',').map(Number);
const KEY_P95_MS = 100;
const KEY_HANG_MS = 1_000;
/**
 * No task of the window's thread may take longer, whatever the email and the key (issue 43). A task
 * is judged by the CPU time the window's thread spent in it, from Chromium's own trace (each task's
 * thread time), as the keys are judged: on this 2-core machine, with another test worker beside it,
 * a task's wall time also counts the time the thread waited for a core. The wall times the page's
 * longtask observer saw are printed beside them. An email with a task past the limit is driven through
 * its keys once more: the run fails when the same key goes past it again (the email's own work); a
 * task long once only (a garbage collection, cold code's first run) is printed.
 */
const LONG_TASK_MS = 50;
const longTasks: string[] = [];
/** A task of the window's thread, from the trace: when it began, its wall and CPU time (µs). */
interface TraceTask { name: string; ph: string; ts: number; dur?: number; tdur?: number; pid: number; tid: number }
/** Every view and tool key, in the order a tester might press them; R last (it leaves for the rule form). */
const KEYS = ['1', '2', '3', '4', '1', 'w', 'D', 'C', 'L', 'V', 'H', 'E', 'P', 'Control+p', 'w', 'w', 'D', 'R'];
/** Every fifth email also gets the accessibility check and compare (A, B: main's hidden window, a second or so each). */
const DEEP_KEYS = [...KEYS.slice(0, -1), 'A', 'B', 'R'];
const DEEP_EVERY = 5;
const FIXED_CASES = 'test/fixtures/fuzz-cases';

/** Counts every request that reaches it: anything fetched from the mail before `i`. */
async function captureServer(): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    response.end('');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Records, for each key, the wall time from its event to the next animation frame (a hang shows here, whatever the load). */
async function watchKeys(page: Page): Promise<void> {
  await page.evaluate(() => {
    const times: number[] = [];
    (window as unknown as { __keyTimes: number[] }).__keyTimes = times;
    // The window's thread, task by task: what no key may hold past LONG_TASK_MS.
    const tasks: number[] = [];
    (window as unknown as { __longTasks: number[] }).__longTasks = tasks;
    new PerformanceObserver((list) => list.getEntries().forEach((entry) => tasks.push(entry.duration))).observe({ type: 'longtask' });
    window.addEventListener('keydown', (event) => requestAnimationFrame(() => times.push(performance.now() - event.timeStamp)), { capture: true });
  });
}

/** The longest task since the last ask (0: none over 50 ms, which is all the observer reports). */
async function longestTask(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks.splice(0)));
}

async function lastKeyTime(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() => setTimeout(() => resolve((window as unknown as { __keyTimes: number[] }).__keyTimes.at(-1) ?? 0))),
      ),
  );
}

/** Drives one open email through every key; throws with the case's name on the first thing wrong. */
type KeyTimes = Map<string, number[]>;

/** The renderer main thread's CPU time so far, in ms (Chromium's ThreadTime). */
async function rendererCpuMs(cdp: CDPSession): Promise<number> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return (metrics.find((metric) => metric.name === 'ThreadTime')?.value ?? 0) * 1000;
}

async function driveOpenEmail(app: AppHandle, cdp: CDPSession, caseName: string, capture: { hits: string[] }, times: KeyTimes, deep: boolean): Promise<void> {
  const { page } = app;
  const fail = (what: string) => {
    throw new Error(`${caseName}: ${what}`);
  };
  for (const key of deep ? DEEP_KEYS : KEYS) {
    const cpuBefore = await rendererCpuMs(cdp);
    // In the trace, what follows this mark is this key's work (longTasksOf below).
    await page.evaluate((name) => performance.mark(name), `fuzz ${caseName} ${key}`);
    await page.keyboard.press(key);
    const took = await lastKeyTime(page);
    times.set(key, [...(times.get(key) ?? []), (await rendererCpuMs(cdp)) - cpuBefore]);
    if (took > KEY_HANG_MS) fail(`the key ${key} answered after ${took.toFixed(0)} ms`);
    const held = await longestTask(page);
    if (held > 0) longTasks.push(`${caseName} ${key} ${held.toFixed(0)} ms`);
    if ((await page.locator('#root .app').count()) === 0) fail(`the app is gone after ${key}`);
    const fallen = await page.locator('[data-render-error]').allTextContents();
    if (fallen.length > 0) fail(`after ${key}: ${fallen.join(' | ')}`);
    if (app.blockedRequests.length > 0) fail(`the page fetched ${app.blockedRequests.join(', ')} before i`);
    if (app.printRequests.length > 0) fail(`the print page fetched ${app.printRequests.join(', ')} before i`);
    const inspected = app.inspectorRequests.filter((url) => !url.startsWith('data:'));
    if (inspected.length > 0) fail(`main's hidden window fetched ${inspected.join(', ')} before i`);
    if (capture.hits.length > 0) fail(`something fetched ${capture.hits.join(', ')} before i`);
  }
  // R opened a new rule from the email: back to the inbox, the draft discarded.
  await expect(page.getByRole('form', { name: 'New automation' }), `${caseName}: R opens the rule form`).toBeVisible();
  await page.keyboard.press('Escape');
  await page.keyboard.press('g');
  await page.keyboard.press('i');
  const guard = page.getByRole('dialog', { name: 'Unsaved changes' });
  if (await guard.isVisible()) await guard.getByRole('button', { name: 'Discard' }).click();
  await expect(page.getByRole('listbox'), `${caseName}: back in the inbox`).toBeVisible();
  // Every call the keys started has its answer (a check, a PDF, a save) before the next email.
  await expect.poll(() => app.pendingCalls(), { message: `${caseName}: a call never answered`, timeout: 30_000 }).toBe(0);
}

/** Opens every email of the service in turn (j from the first) and drives each. */
/** A task of the window's thread, named by the case and key whose mark came last before it ('opening': before the first key). */
interface TimedTask {
  key: string;
  /** Its thread time and its wall time, ms. */
  cpu: number;
  wall: number;
}

const describeTask = (task: TimedTask) => `${task.key}: ${task.cpu.toFixed(0)} ms CPU (${task.wall.toFixed(0)} ms wall)`;

/** Every task of the window's thread (the thread where the fuzzer's marks are) in the trace. */
function tasksOf(trace: Buffer): TimedTask[] {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceTask[] }).traceEvents;
  const marks = events.filter((e) => e.name.startsWith('fuzz ')).sort((a, b) => a.ts - b.ts);
  const window = marks[0];
  if (!window) throw new Error('the trace holds none of the fuzzer’s marks');
  const tasks = events.filter((e) => e.name === 'ThreadControllerImpl::RunTask' && e.ph === 'X' && e.pid === window.pid && e.tid === window.tid);
  if (tasks.length === 0 || tasks.every((task) => task.tdur === undefined)) throw new Error('the trace has no thread times for the window’s tasks');
  return tasks.map((task) => ({
    key: marks.filter((mark) => mark.ts <= task.ts).at(-1)?.name.slice('fuzz '.length) ?? 'opening',
    cpu: (task.tdur ?? 0) / 1000,
    wall: (task.dur ?? 0) / 1000,
  }));
}

async function driveAll(app: AppHandle, service: RunningService, team: string, capture: { hits: string[] }, count: number): Promise<void> {
  const times: KeyTimes = new Map();
  const { page } = app;
  const browser = page.context().browser()!;
  const seen: TimedTask[] = [];
  const over: string[] = [];
  const onceOnly: TimedTask[] = [];
  /** Drives the open email under a trace of its own: tasks and their thread times ('toplevel'), and the fuzzer's marks (user timing). */
  const tracedDrive = async (caseName: string, deep: boolean, keyTimes: KeyTimes) => {
    await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
    let trace: Buffer;
    try {
      await driveOpenEmail(app, cdp, caseName, capture, keyTimes, deep);
    } finally {
      trace = await browser.stopTracing();
    }
    return tasksOf(trace);
  };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  await watchKeys(page);
  await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option').first()).toBeVisible();
  await page.getByRole('listbox', { name: 'Emails' }).getByRole('option').first().click();
  await page.keyboard.press('Enter');
  for (let n = 0; n < count; n++) {
    const selected = await page.getByRole('listbox', { name: 'Emails' }).getByRole('option', { selected: true }).getAttribute('id');
    const id = selected?.replace(/^email-/, '') ?? '';
    const raw = service.service.team(team).content(id)?.raw ?? Buffer.alloc(0);
    const caseName = /X-Fuzz-Case: (\S+)/.exec(raw.toString('latin1'))?.[1] ?? id;
    try {
      const deep = n % DEEP_EVERY === 0;
      const found = await tracedDrive(caseName, deep, times);
      seen.push(...found);
      const long = found.filter((task) => task.cpu > LONG_TASK_MS);
      if (long.length > 0) {
        // The same email and keys once more: a task its own work makes long is long again, while a
        // collection or the first run of cold code lands on whichever key happens to run then.
        const again = (await tracedDrive(caseName, deep, new Map())).filter((task) => task.cpu > LONG_TASK_MS);
        const repeated = long.filter((task) => again.some((other) => other.key === task.key));
        over.push(...repeated.map((task) => `${describeTask(task)}, and again on replay`));
        onceOnly.push(...long.filter((task) => !repeated.includes(task)));
      }
    } catch (error) {
      console.error(`Fuzz case ${caseName} failed. Its bytes (base64), to keep as ${FIXED_CASES}/${caseName}.eml:\n${raw.toString('base64')}`);
      throw error;
    }
    if (n < count - 1) {
      await page.keyboard.press('j');
      await expect(page.getByRole('listbox', { name: 'Emails' }).getByRole('option', { selected: true }), 'j moves on').not.toHaveAttribute('id', selected ?? '');
    }
  }
  const rows = [...times].map(([key, list]) => {
    const sorted = [...list].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    return { key, p50: at(0.5), p95: at(0.95), max: sorted.at(-1)! };
  });
  if (onceOnly.length > 0) console.log(`over ${LONG_TASK_MS} ms of CPU once, not again on replay: ${onceOnly.map(describeTask).join('; ')}`);
  if (longTasks.length > 0) console.log(`tasks over ${LONG_TASK_MS} ms of wall time (the longtask observer): ${longTasks.splice(0).join('; ')}`);
  console.log(`the window's longest tasks by CPU time: ${[...seen].sort((a, b) => b.cpu - a.cpu).slice(0, 5).map(describeTask).join('; ')}`);
  // The longest by wall time: mostly the thread waiting on another process (0 ms of CPU), printed to see.
  console.log(`and by wall time: ${[...seen].sort((a, b) => b.wall - a.wall).slice(0, 3).map(describeTask).join('; ')}`);
  expect(over, `tasks of the window's thread over ${LONG_TASK_MS} ms of CPU (case and key)`).toEqual([]);
  console.log(`keys over ${count} emails (renderer CPU ms, key to its frame, p50/p95/max): ${rows.map((r) => `${r.key} ${r.p50.toFixed(0)}/${r.p95.toFixed(0)}/${r.max.toFixed(0)}`).join(', ')}`);
  // A percentile of a handful of presses is only their worst: the replay of a few cases holds to the hang limit alone.
  if (count >= 20) for (const row of rows) expect(row.p95, `the key ${row.key}: renderer CPU at p95`).toBeLessThanOrEqual(KEY_P95_MS);
}

async function openOn(openApp: (options: OpenAppOptions) => Promise<AppHandle>, messages: Buffer[]) {
  const service = await startReferenceService({ teams: [{ id: 'fuzz', token: 'fuzz-token' }], rateLimit: 0 });
  for (const raw of messages) await service.inject(raw, { recipients: ['qa@fuzz.test'] });
  const app = await openApp({ baseUrl: service.baseUrl, teamId: 'fuzz', token: 'fuzz-token' });
  return { service, app };
}

for (const seed of SEEDS) {
  test(`generated mail, seed ${seed}: ${CASES} emails through every view and tool key, nothing breaks, nothing is fetched`, async ({ openApp }) => {
    test.setTimeout(60_000 + CASES * 8_000);
    const capture = await captureServer();
    const { service, app } = await openOn(openApp, fuzzMessages({ capture: capture.url }, CASES, seed));
    try {
      const total = service.service.team('fuzz').count();
      expect(total).toBe(CASES);
      await driveAll(app, service, 'fuzz', capture, total);
    } finally {
      await service.close();
      await capture.close();
    }
  });
}

test('every case the fuzzer ever broke the app with, replayed', async ({ openApp }) => {
  const files = (await readdir(FIXED_CASES).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
  test.skip(files.length === 0, 'no case has broken the app yet');
  const capture = await captureServer();
  const raws = await Promise.all(files.map((name) => readFile(join(FIXED_CASES, name))));
  // Their URLs pointed at the capture server of the run that found them: now at this one.
  const here = raws.map((raw) => Buffer.from(raw.toString('latin1').replace(/http:\/\/127\.0\.0\.1:\d+/g, capture.url), 'latin1'));
  const { service, app } = await openOn(openApp, here);
  try {
    await driveAll(app, service, 'fuzz', capture, here.length);
  } finally {
    await service.close();
    await capture.close();
  }
});
