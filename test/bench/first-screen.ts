/**
 * The first screen: from the renderer's navigation start to the first frame
 * that paints email rows, in the built renderer (Debian's Chromium, through
 * the test host). Each start with no snapshot (a new settings folder: what
 * the server answers is all there is) against each start from the last
 * run's snapshot (main's first-screen.json), interleaved, against the
 * reference service with 1,000 emails, on the demo (its worker starts
 * with the window), and on This computer (the catcher, 60 emails caught over
 * SMTP). Prints JSON for run.ts. Needs `electron-vite build` first.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import nodemailer from 'nodemailer';
import { openApp, type AppHandle, type OpenAppOptions } from '../e2e/host.ts';
import { startReferenceService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { chromiumPath } from '../support/browser.ts';
import { percentile } from './scale.ts';

/** 24: the p95 is then the second-slowest start, not the slowest (one hiccup of this machine moved it by 70 ms). */
const STARTS = 24;

/** In the page from its first script: the time of the first animation frame with a row in the list. */
const WATCH_ROWS = `(() => {
  const check = () => {
    if (document.querySelector('#email-list [role="option"]')) { window.__firstRows = performance.now(); return; }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

/** Where one start's time went, in ms from navigation start: the page, the bundle's bytes, the bundle run, the snapshot shown, the rows painted. */
interface Start {
  page: number;
  bundleFetched: number;
  bundleRun: number;
  snapshotShown: number | null;
  rows: number;
}

async function firstRows(browser: Browser, options: OpenAppOptions, before?: (app: AppHandle) => Promise<void>): Promise<Start> {
  const app = await openApp(browser, { ...options, initScript: WATCH_ROWS });
  try {
    await before?.(app);
    const handle = await app.page.waitForFunction(() => (window as unknown as { __firstRows?: number }).__firstRows, undefined, { timeout: 20_000 });
    const rows = (await handle.jsonValue()) as number;
    const times = await app.page.evaluate(() => {
        const mark = (name: string) => performance.getEntriesByName(name, 'mark')[0]?.startTime ?? null;
        const bundle = performance.getEntriesByType('resource').find((entry) => /\/assets\/index-[^/]*\.js$/.test(entry.name)) as PerformanceResourceTiming | undefined;
        return {
          page: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseEnd,
          bundleFetched: bundle?.responseEnd ?? Number.NaN,
          bundleRun: mark('inbox-desk:bundle-run') ?? Number.NaN,
          snapshotShown: mark('inbox-desk:snapshot-shown'),
        };
      });
    // The fresh page too, so the next start's snapshot is this run's.
    await app.page.waitForFunction(() => !document.querySelector('nav[aria-label="Pages"]')?.textContent?.includes('as of'), undefined, { timeout: 20_000 });
    return { ...times, rows };
  } finally {
    await app.close();
  }
}

const browser = await chromium.launch({ ...(chromiumPath ? { executablePath: chromiumPath } : {}), args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const service = await startReferenceService({ teams: [{ id: 'bench', token: 'bench-token' }] });
const kept = await mkdtemp(join(tmpdir(), 'inbox-desk-first-screen-'));
const keptDemo = await mkdtemp(join(tmpdir(), 'inbox-desk-first-screen-demo-'));
const keptCatcher = await mkdtemp(join(tmpdir(), 'inbox-desk-first-screen-catcher-'));
/** Mail an app under test sends to This computer (its store is kept in the settings folder, as main keeps it). */
const catchSome = async (app: AppHandle) => {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: app.catcherSmtpPort()!, secure: false, requireTLS: true, auth: { user: 'myapp', pass: 'dev' }, tls: { rejectUnauthorized: false } });
  for (let i = 0; i < 60; i++) await transport.sendMail({ from: 'Sign-up <signup@myapp.test>', to: `user${i}@example.test`, subject: `Confirm your address ${i}`, text: `Your code is ${100000 + i}.` });
  transport.close();
};
try {
  for (let i = 0; i < 1000; i++) await service.inject(rawMail({ subject: `Ticket ${i}`, from: `Customer ${i % 37} <c${i % 37}@example.test>` }));
  const remote = { baseUrl: service.baseUrl, teamId: 'bench', token: 'bench-token' };
  // The snapshot folders get their first page once.
  await firstRows(browser, { ...remote, dataDir: kept });
  await firstRows(browser, { demo: true, dataDir: keptDemo });
  const catcher = { demo: true as const, catcher: { show: true }, dataDir: keptCatcher };
  await firstRows(browser, catcher, catchSome);
  const cold: number[] = [];
  const snap: Start[] = [];
  const demoCold: number[] = [];
  const demoSnap: number[] = [];
  const catcherSnap: number[] = [];
  const rowsAt = async (...args: Parameters<typeof firstRows>) => (await firstRows(...args)).rows;
  for (let i = 0; i < STARTS; i++) {
    cold.push(await rowsAt(browser, remote));
    snap.push(await firstRows(browser, { ...remote, dataDir: kept }));
    demoCold.push(await rowsAt(browser, { demo: true }));
    demoSnap.push(await rowsAt(browser, { demo: true, dataDir: keptDemo }));
    catcherSnap.push(await rowsAt(browser, catcher));
  }
  const p = (values: number[]) => ({ p50: percentile(values, 50), p95: percentile(values, 95) });
  const p50 = (pick: (start: Start) => number | null) => percentile(snap.map(pick).filter((v): v is number => v !== null && Number.isFinite(v)), 50);
  const breakdown = { page: p50((b) => b.page), bundleFetched: p50((b) => b.bundleFetched), bundleRun: p50((b) => b.bundleRun), snapshotShown: p50((b) => b.snapshotShown), rows: p50((b) => b.rows) };
  console.log(JSON.stringify({ starts: STARTS, breakdown, cold: p(cold), snapshot: p(snap.map((start) => start.rows)), demoCold: p(demoCold), demoSnapshot: p(demoSnap), catcherSnapshot: p(catcherSnap) }));
} finally {
  await service.close();
  await browser.close();
  await rm(kept, { recursive: true, force: true });
  await rm(keptDemo, { recursive: true, force: true });
  await rm(keptCatcher, { recursive: true, force: true });
}
