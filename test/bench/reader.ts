/**
 * The reader measured as a person uses it: the built renderer in Debian's
 * Chromium through the test host (test/e2e/host.ts), real keys from
 * Playwright, times taken inside the page from the key's own timestamp to the
 * animation frame that paints the change. Needs `electron-vite build` first.
 */
import { chromiumPath } from '../support/browser.ts';
import { chromium, type Page } from '@playwright/test';
import { performance } from 'node:perf_hooks';
import { startReferenceService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { openApp } from '../e2e/host.ts';
import type { ReaderFigures } from './reader-figures.ts';
import { percentile } from './scale.ts';
import { presentedPresses, type TraceEvent } from './presented.ts';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const TOKEN = 'reader-bench';


/**
 * Installs the in-page probe: from a keydown's timestamp to the first animation frame that shows what it asked for.
 * Each press records:
 * - `results`: to the task after that frame (a paint-timing probe's way: the frame's own style, layout and
 *   paint are counted). Right where the page is idle and the host draws a frame on demand.
 * - `work`: to the end of the key's own handlers (the app's work before any frame).
 * With the display clock running (`displayClock`), a press also marks itself (`key:N`) and the frame that
 * showed its change (`shown:N`) for the trace (presented.ts), and turns a small square in a corner
 * (8 px), so that a key that changes nothing has a frame to present too.
 */
async function installProbe(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { probe: Probe };
    interface Probe { expect: string | null; results: number[]; frames: number; longest: number; work: number[]; shown: number; clock: boolean; presses: number }
    w.probe = { expect: null, results: [], frames: 0, longest: 0, work: [], shown: -1, clock: false, presses: 0 };
    const square = document.createElement('div');
    square.style.cssText = 'position:fixed;left:0;top:0;width:8px;height:8px;z-index:2147483647;pointer-events:none;background:#000';
    document.body.append(square);
    const shows = (text: string) => {
      const heading = document.querySelector('.message-header h2')?.textContent ?? '';
      // The frame stays when an email shows as text, hidden.
      const frame = document.querySelector<HTMLIFrameElement>('iframe[title="Email content"]:not([hidden])');
      const body = frame?.contentDocument?.body?.textContent ?? document.querySelector('pre.plain')?.textContent ?? '';
      return heading === text && body.includes(text === '' ? '' : `Marker ${text}`);
    };
    window.addEventListener(
      'keydown',
      (event) => {
        const expected = w.probe.expect;
        if (expected === null) return;
        const started = event.timeStamp;
        const press = w.probe.presses++;
        if (w.probe.clock) {
          performance.mark(`key:${press}`);
          square.style.background = press % 2 ? '#000' : '#fff';
        }
        // Registered last on the window, in the bubbling phase: runs after the app's own handlers.
        window.addEventListener('keydown', () => w.probe.work.push(performance.now() - started), { once: true });
        // Checked at each animation frame, just before its style, layout and paint: the first frame that
        // shows it. How many frames began before it showed: 1, the first frame after the key, is "within the frame".
        let frames = 0;
        const check = () => {
          frames += 1;
          if (expected === '' || shows(expected)) {
            w.probe.frames = frames;
            if (w.probe.clock) {
              performance.mark(`shown:${press}`);
              w.probe.shown = press;
            } else setTimeout(() => w.probe.results.push(performance.now() - started), 0);
          } else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      },
      { capture: true },
    );
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.probe.longest = Math.max(w.probe.longest, entry.duration);
    }).observe({ type: 'longtask' });
  });
}

/**
 * A display's clock: an animation frame every tick, as a screen that refreshes at 60 Hz asks for them,
 * so that a key waits for the next tick as it does on a real screen. Without it this host draws a frame
 * at once after an idle spell, and a key that changes nothing would be timed in another regime than one
 * that shows the next email.
 */
async function displayClock(page: Page, on: boolean): Promise<void> {
  await page.evaluate((on) => {
    const w = window as unknown as { probe: { clock: boolean } };
    w.probe.clock = on;
    const tick = () => {
      if (w.probe.clock) requestAnimationFrame(tick);
    };
    if (on) requestAnimationFrame(tick);
  }, on);
}

/** A key pressed with the display clock running: its number (for the trace) and its own work. */
async function pacedKey(page: Page, key: string, expect: string): Promise<{ press: number; work: number }> {
  const press = await page.evaluate((text) => {
    const w = window as unknown as { probe: { expect: string | null; work: number[]; presses: number } };
    w.probe.expect = text;
    w.probe.work = [];
    return w.probe.presses;
  }, expect);
  await page.keyboard.press(key);
  const handle = await page.waitForFunction(
    (press) => {
      const probe = (window as unknown as { probe: { shown: number; work: number[] } }).probe;
      return probe.shown === press && probe.work.length > 0 && probe.work[0]!;
    },
    press,
    { timeout: 20_000 },
  );
  const work = (await handle.jsonValue()) as number;
  await page.evaluate(() => ((window as unknown as { probe: { expect: string | null } }).probe.expect = null));
  return { press, work };
}

async function timedKey(page: Page, key: string, expect: string): Promise<number> {
  await page.evaluate((text) => {
    const w = window as unknown as { probe: { expect: string | null; results: number[] } };
    w.probe.expect = text;
    w.probe.results = [];
  }, expect);
  await page.keyboard.press(key);
  const handle = await page.waitForFunction(() => (window as unknown as { probe: { results: number[] } }).probe.results[0], undefined, { timeout: 20_000 });
  const value = (await handle.jsonValue()) as number;
  await page.evaluate(() => ((window as unknown as { probe: { expect: string | null } }).probe.expect = null));
  return value;
}

const newsletter = (subject: string, bytes: number) => {
  const row = (i: number) => `<tr><td style="padding:4px;border-bottom:1px solid #eee">Item ${i}</td><td>${'Offer details and terms apply. '.repeat(4)}</td></tr>`;
  const rows: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const r = row(i);
    rows.push(r);
    size += r.length;
  }
  return `<h1>Marker ${subject}</h1><table>${rows.join('')}</table>`;
};

export async function measureReader(): Promise<ReaderFigures> {
  const service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
  const team = service.service.team('t');
  // 1,000 ordinary emails (a few KB of HTML each), newest first by their number.
  for (let i = 1; i <= 1000; i++) {
    const subject = `Message ${i}`;
    const [id] = await service.inject(rawMail({ subject, html: `<h1>Marker ${subject}</h1>${`<p>${'A paragraph of an ordinary email. '.repeat(12)}</p>`.repeat(6)}` }));
    team.updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000) });
  }
  const big = [
    { subject: 'Big text', text: `Marker Big text\n${Array.from({ length: 170_000 }, (_, i) => `log line ${i}: ${'x'.repeat(50)}`).join('\n')}` },
    { subject: 'Big 5 MB', html: newsletter('Big 5 MB', 5_000_000) },
    { subject: 'Big 2 MB', html: newsletter('Big 2 MB', 2_000_000) },
    // Two more of the size, other bytes (nothing cached from the first): the first screen is the median of three.
    { subject: 'Second wide newsletter', html: newsletter('Second wide newsletter', 2_000_000) },
    { subject: 'Third wide newsletter', html: newsletter('Third wide newsletter', 2_000_000) },
  ];
  for (const [i, mail] of big.entries()) {
    const [id] = await service.inject(rawMail(mail));
    team.updateEmail(id!, { createdAt: new Date(Date.UTC(2025, 0, 1 + i)) });
  }

  const browser = await chromium.launch({ ...(chromiumPath ? { executablePath: chromiumPath } : {}), args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const app = await openApp(browser, { baseUrl: service.baseUrl, teamId: 't', token: TOKEN, viewport: { width: 1280, height: 800 } });
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'Message 1000' }).waitFor();
    await installProbe(page);
    // The long-task observer is shown one task of 80 ms first: "no task over 50 ms" below is
    // then a figure of an observer that sees (a script run by page.evaluate is not a task to it).
    await page.evaluate(() => setTimeout(() => {
      const began = performance.now();
      while (performance.now() - began < 80);
    }, 0));
    await page.waitForTimeout(300);
    const longTaskCalibration = await page.evaluate(() => (window as unknown as { probe: { longest: number } }).probe.longest);
    await resetLongest(page);

    const floor: number[] = [];
    for (let i = 0; i < 30; i++) floor.push(await timedKey(page, 'F9', ''));

    // Opened from the list, nothing fetched ahead: Esc, move three rows, Enter (page 1 has 25 rows).
    const subjectAt = (row: number) => `Message ${1001 - row}`;
    const cold: number[] = [];
    let row = 1;
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: subjectAt(row), exact: true }).waitFor();
    for (let i = 0; i < 8; i++) {
      await closeReader(page);
      for (let k = 0; k < 3; k++) await page.keyboard.press('j');
      row += 3;
      cold.push(await timedKey(page, 'Enter', subjectAt(row)));
    }

    // k up to the top, then j down to the bottom, with the reader open, each time after the
    // neighbours were fetched ahead and sanitized: as the idle host draws (to the task after the
    // frame), and with a display clock running, each j/k beside a key that changes nothing pressed
    // the same way (reader open, after an idle spell of 120-280 ms, a different one each time, so
    // the presses fall anywhere between two ticks).
    const next: number[] = [];
    let nextInFirstFrame = 0;
    const step = async (key: 'j' | 'k') => {
      await page.waitForTimeout(250);
      row += key === 'j' ? 1 : -1;
      next.push(await timedKey(page, key, subjectAt(row)));
      if ((await page.evaluate(() => (window as unknown as { probe: { frames: number } }).probe.frames)) === 1) nextInFirstFrame += 1;
    };
    while (row > 1) await step('k');
    while (row < 25) await step('j');
    const paced = { next: [] as number[], noop: [] as number[], nextWork: [] as number[], noopWork: [] as number[] };
    let phase = 0;
    const idle = () => page.waitForTimeout(120 + (phase = (phase + 37) % 160));
    // BENCH_SLOW_KEYS=<ms> makes j and k hold the thread that long, to see this measure catch a late frame
    // (10 ms: about 9 of 48 late; 20 ms: about 40).
    const slowKeys = Number(process.env.BENCH_SLOW_KEYS ?? 0);
    if (slowKeys > 0) {
      await page.evaluate((ms) => {
        window.addEventListener('keydown', (event) => {
          const began = performance.now();
          if (event.key === 'j' || event.key === 'k') while (performance.now() - began < ms);
        });
      }, slowKeys);
    }
    await displayClock(page, true);
    const tracePath = join(await mkdtemp(join(tmpdir(), 'reader-trace-')), 'trace.json');
    // The page's marks, and the compositor's frames from their ticks to their presentations.
    await browser.startTracing(page, { path: tracePath, categories: ['blink.user_timing', 'disabled-by-default-devtools.timeline.frame'] });
    const pacedStep = async (key: 'j' | 'k') => {
      await idle();
      const noop = await pacedKey(page, 'F9', '');
      paced.noop.push(noop.press);
      paced.noopWork.push(noop.work);
      await idle();
      row += key === 'j' ? 1 : -1;
      const moved = await pacedKey(page, key, subjectAt(row));
      paced.next.push(moved.press);
      paced.nextWork.push(moved.work);
    };
    while (row > 1) await pacedStep('k');
    while (row < 25) await pacedStep('j');
    // A few frames more, so that the last press's frame is presented and a tick follows it.
    await page.waitForTimeout(200);
    await browser.stopTracing();
    await displayClock(page, false);
    const { traceEvents } = JSON.parse(await readFile(tracePath, 'utf8')) as { traceEvents: TraceEvent[] };
    // BENCH_KEEP_TRACE=1 keeps it to look at (chrome://tracing, Perfetto).
    if (process.env.BENCH_KEEP_TRACE) console.error(`reader trace: ${tracePath}`);
    else await rm(dirname(tracePath), { recursive: true, force: true });
    const byPress = presentedPresses(traceEvents);
    const figuresOf = (presses: number[]) => presses.map((n) => byPress.get(n)).filter((f) => f !== undefined);
    const nextShown = figuresOf(paced.next);
    const noopShown = figuresOf(paced.noop);

    // Big mail, found by a search and opened from the list.
    const html2mbFirstScreen = percentile([await openFound(page, 'Second wide newsletter'), await openFound(page, 'Third wide newsletter'), await openFound(page, 'Big 2 MB')], 50);
    const { tools2mbLongestTask, compat2mbReport, accessibility2mbReport, compare2mbReport } = await toolsOnOpenEmail(page, app.calls);
    const text10mbFirstScreen = await openFound(page, 'Big text');
    await resetLongest(page);
    const html5mbFirstScreen = await openFound(page, 'Big 5 MB');
    await page.waitForTimeout(300);
    const html5mbLongestTask = await page.evaluate(() => (window as unknown as { probe: { longest: number } }).probe.longest);
    const html5mbKeyHonoured = await keyDuringOpen(page);
    await app.close();
    return {
      floorP95: percentile(floor, 95),
      nextPrefetchedP50: percentile(next, 50),
      nextPrefetchedP95: percentile(next, 95),
      nextInFirstFrame,
      nextPresses: next.length,
      nextShownP50: percentile(nextShown.map((f) => f.keyToPresented), 50),
      nextShownP95: percentile(nextShown.map((f) => f.keyToPresented), 95),
      noopShownP50: percentile(noopShown.map((f) => f.keyToPresented), 50),
      noopShownP95: percentile(noopShown.map((f) => f.keyToPresented), 95),
      nextTicksP95: percentile(nextShown.map((f) => f.ticks), 95),
      noopTicksP95: percentile(noopShown.map((f) => f.ticks), 95),
      nextLate: nextShown.filter((f) => f.ticks >= 3).length,
      nextShownPresses: nextShown.length,
      noopShownPresses: noopShown.length,
      nextWorkP95: percentile(paced.nextWork, 95),
      noopWorkP95: percentile(paced.noopWork, 95),
      coldOpenP50: percentile(cold, 50),
      coldOpenP95: percentile(cold, 95),
      html2mbFirstScreen,
      html5mbFirstScreen,
      html5mbLongestTask,
      html5mbKeyHonoured,
      text10mbFirstScreen,
      tools2mbLongestTask,
      compat2mbReport,
      accessibility2mbReport,
      compare2mbReport,
      longTaskCalibration,
    };
  } finally {
    await browser.close();
    await service.close();
  }
}

/**
 * Esc leaves whatever has focus first, closes each check's report (the last shown first), then
 * the reader: j then moves the selection only, and Enter opens afresh.
 */
async function closeReader(page: Page): Promise<void> {
  const empty = page.locator('.message-pane.empty');
  for (let i = 0; i < 10 && (await empty.count()) === 0; i++) await page.keyboard.press('Escape');
  await empty.waitFor();
}

const selected = (page: Page, subject: string) =>
  page.getByRole('listbox', { name: 'Emails' }).locator('[aria-selected="true"]').filter({ hasText: subject });

/** Closes the reader and searches (Enter in the box runs it and goes to the results), then selects the top row. */
async function search(page: Page, text: string, first: string): Promise<void> {
  await closeReader(page);
  await page.keyboard.press('/');
  await page.getByRole('searchbox', { name: 'Search' }).fill(text);
  await page.keyboard.press('Enter');
  await page.getByRole('option').filter({ hasText: first }).first().waitFor();
  for (let i = 0; i < 3; i++) await page.keyboard.press('k');
  await selected(page, first).waitFor();
}

/** Enter on a big email found by its subject, to its first screen. */
async function openFound(page: Page, subject: string): Promise<number> {
  await search(page, subject, subject);
  return timedKey(page, 'Enter', subject);
}

/**
 * Every tool of the tester's bench, one after another, on the open email: the
 * compatibility check (H, to its report), the widths (w) and dark mode (D), the
 * code and link (C, L), the headers with sender checks (4), the link check (V),
 * save as .eml (E), print (Ctrl+P), and back to the HTML (1). The longest task
 * of the page meanwhile is the figure: no tool may hold the UI thread.
 */
async function toolsOnOpenEmail(
  page: Page,
  calls: string[],
): Promise<{ tools2mbLongestTask: number; compat2mbReport: number; accessibility2mbReport: number; compare2mbReport: number }> {
  // Whatever the opening itself still does (slices, layout) is over first.
  await page.waitForTimeout(1500);
  await resetLongest(page);
  const began = Date.now();
  await page.keyboard.press('H');
  await page.getByRole('region', { name: 'HTML compatibility' }).getByRole('status').filter({ hasText: /not supported everywhere|works in all/ }).waitFor({ timeout: 60_000 });
  const compat2mbReport = Date.now() - began;
  for (const key of ['w', 'w', 'w', 'D', 'D', 'C', 'L']) {
    await page.keyboard.press(key);
    await page.waitForTimeout(100);
  }
  await page.keyboard.press('4');
  await page.getByRole('table', { name: 'Sender checks' }).waitFor();
  await page.keyboard.press('V');
  await page.getByRole('region', { name: 'Link check' }).waitFor();
  await page.keyboard.press('E');
  await page.getByRole('status').filter({ hasText: 'Saved to' }).first().waitFor();
  await page.keyboard.press('1');
  await page.keyboard.press('Control+p');
  await page.getByRole('status').filter({ hasText: 'Sent to the printer.' }).waitFor({ timeout: 60_000 }).catch(async (e: unknown) => {
    console.error(calls.slice(-8));
    throw e;
  });
  // Accessibility (A): axe-core in main's hidden window, light and dark; then Esc closes its report.
  let began2 = Date.now();
  await page.keyboard.press('A');
  await page.getByRole('region', { name: 'Accessibility' }).getByRole('status').filter({ hasText: /accessibility problem/ }).waitFor({ timeout: 120_000 }).catch(async (e: unknown) => {
    console.error(await page.locator('[role=status], [role=alert]').allInnerTexts(), calls.slice(-8));
    throw e;
  });
  const accessibility2mbReport = Date.now() - began2;
  await page.keyboard.press('Escape');
  // Compare (B): with the one before of its kind, the 5 MB newsletter.
  began2 = Date.now();
  await page.keyboard.press('B');
  await page.getByRole('region', { name: 'Compared with the previous one' }).getByRole('status').filter({ hasText: 'Compared with' }).waitFor({ timeout: 120_000 }).catch(async (e: unknown) => {
    console.error(await page.locator('[role=status], [role=alert]').allInnerTexts(), calls.slice(-8));
    throw e;
  });
  const compare2mbReport = Date.now() - began2;
  await page.waitForTimeout(300);
  const tools2mbLongestTask = await page.evaluate(() => (window as unknown as { probe: { longest: number } }).probe.longest);
  return { tools2mbLongestTask, compat2mbReport, accessibility2mbReport, compare2mbReport };
}

async function resetLongest(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { probe: { longest: number } }).probe.longest = 0));
}

/** Enter on the 5 MB email and j at once: whether j moved the selection and the reader followed. */
async function keyDuringOpen(page: Page): Promise<boolean> {
  // Newest first: Big 2 MB, Big 5 MB, Big text.
  await search(page, 'Big', 'Big 2 MB');
  await page.keyboard.press('j');
  await selected(page, 'Big 5 MB').waitFor();
  await page.keyboard.press('Enter');
  await page.keyboard.press('j');
  await page.getByRole('heading', { name: 'Big text', exact: true }).waitFor({ timeout: 20_000 });
  return (await selected(page, 'Big text').count()) === 1;
}

// Run on its own by run.ts (npm run bench): prints the figures as JSON.
if (process.argv[1]?.endsWith('reader.ts')) {
  console.log(JSON.stringify(await measureReader()));
  process.exit(0);
}
