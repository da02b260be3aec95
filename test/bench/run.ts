/**
 * Benchmarks that print figures (npm run bench). Each figure is quoted against
 * a baseline measured in the same run, on the same machine.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ServiceClient } from '../../src/main/api/client.ts';
import { startReferenceService } from '../../src/server/index.ts';
import { KeptFigures } from './kept.ts';
import type { ReaderFigures } from './reader-figures.ts';
import { INGEST_MESSAGES, INGEST_SESSIONS, measureScale, SEARCH_TERM, SERVER_NODE_ARGS, type ScaleFigures } from './scale.ts';

if (process.argv.includes('--scale')) {
  await import('./scale-table.ts');
  process.exit(0);
}

const DEMO = resolve('resources/demo/mail');
const TOKEN = 'bench-token';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function time(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

const rows: string[][] = [];
/** The figures compared with a kept run's (kept.ts): the ones a user feels, or a goal names. */
const kept = new KeptFigures();
const ms = (value: number) => `${value.toFixed(value < 1 ? 3 : 1)} ms`;
const ratio = (slow: number, fast: number) => `${(slow / fast).toFixed(1)}x`;

// 1. The reference service on the demo corpus, against an empty one.
{
  const seeded: number[] = [];
  const empty: number[] = [];
  for (let i = 0; i < 5; i++) {
    let started = performance.now();
    const s = await startReferenceService({ teams: [{ id: 'demo', token: TOKEN }], seedDir: DEMO });
    seeded.push(performance.now() - started);
    await s.close();
    started = performance.now();
    const e = await startReferenceService({ teams: [{ id: 'demo', token: TOKEN }] });
    empty.push(performance.now() - started);
    await e.close();
  }
  kept.track('service start, demo corpus', median(seeded));
  rows.push(['service start, 41 demo emails (median of 5)', ms(median(seeded)), `empty service ${ms(median(empty))}`, `${ratio(median(seeded), median(empty))} of empty; budget 2000 ms`]);
}

// 2. The CLI as a person starts it, until it prints its token, against a bare Node start.
{
  const untilLine = (args: string[], marker: string | null) =>
    new Promise<number>((done, fail) => {
      const started = performance.now();
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (marker && out.includes(marker)) {
          done(performance.now() - started);
          child.kill('SIGTERM');
        }
      });
      child.once('exit', (code) => (marker ? fail(new Error(`server exited ${code}`)) : done(performance.now() - started)));
    });
  const cli: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 3; i++) {
    cli.push(await untilLine([...SERVER_NODE_ARGS, '--port', '0', '--token', TOKEN, '--seed', DEMO], 'Token:'));
    bare.push(await untilLine(['-e', ''], null));
  }
  kept.track('npm run server, until ready', median(cli));
  rows.push(['npm run server on the demo corpus, until ready (median of 3)', ms(median(cli)), `bare node ${ms(median(bare))}`, `${ratio(median(cli), median(bare))} of bare node; budget 2000 ms`]);
}

const service = await startReferenceService({ teams: [{ id: 'demo', token: TOKEN }], seedDir: DEMO });
const connection = { baseUrl: service.baseUrl, teamId: 'demo', token: TOKEN };
const ids = (await new ServiceClient(connection).listEmails({ limit: 100 })).data.filter((e) => e.has_html).map((e) => e.id);

// 3. Going back to an email: main's cache against a fresh request each time.
{
  const warm = new ServiceClient(connection);
  for (const id of ids) {
    await warm.getEmail(id);
    await warm.getEmailBody(id, 'html');
  }
  const uncached: number[] = [];
  const cached: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const id of ids) {
      const cold = new ServiceClient(connection);
      uncached.push(await time(async () => {
        await cold.getEmail(id);
        await cold.getEmailBody(id, 'html');
      }));
      cached.push(await time(async () => {
        await warm.getEmail(id);
        await warm.getEmailBody(id, 'html');
      }));
    }
  }
  rows.push([`reopen an email, record + HTML (median of ${cached.length})`, ms(median(cached)), `over HTTP ${ms(median(uncached))}`, `${ratio(median(uncached), median(cached))} faster`]);
}

// 4. The same list page within its freshness window, against a fresh fetch.
{
  const client = new ServiceClient(connection);
  const fresh: number[] = [];
  const reused: number[] = [];
  for (let i = 0; i < 50; i++) {
    fresh.push(await time(() => client.listEmails({ page: 1, limit: 25 }, { fresh: true })));
    reused.push(await time(() => client.listEmails({ page: 1, limit: 25 })));
  }
  rows.push(['list page 1 of 25 again (median of 50)', ms(median(reused)), `fetched ${ms(median(fresh))}`, `${ratio(median(fresh), median(reused))} faster`]);
}

// 5. The service's list query with every filter, against an unfiltered page.
{
  const client = new ServiceClient(connection);
  const plain: number[] = [];
  const filtered: number[] = [];
  for (let i = 0; i < 50; i++) {
    plain.push(await time(() => client.listEmails({ limit: 25, page: 1 }, { fresh: true })));
    filtered.push(await time(() =>
      client.listEmails({ limit: 25, search: 'invoice', inbox: 'billing@acme.test', subject: 'Invoice*', unread: true }, { fresh: true }),
    ));
  }
  rows.push(['list with search+inbox+subject+unread (median of 50)', ms(median(filtered)), `unfiltered ${ms(median(plain))}`, `${ratio(median(filtered), median(plain))} of unfiltered`]);
}

await service.close();

// 6. listEmails of 100 rows (validation and normalising included) against a bare fetch of the same URL.
{
  const big = await startReferenceService({ teams: [{ id: 'demo', token: TOKEN }], seedDir: DEMO });
  const { rawMail } = await import('../support/mail.ts');
  for (let i = 0; i < 60; i++) await big.inject(rawMail({ subject: `Bench ${i}`, text: 'x' }));
  const client = new ServiceClient({ baseUrl: big.baseUrl, teamId: 'demo', token: TOKEN });
  const url = `${big.baseUrl}/api/teams/demo/emails?page=1&limit=100`;
  const headers = { Authorization: `Bearer ${TOKEN}`, Accept: 'application/vnd.service.v1+json' };
  const bare: number[] = [];
  const listed: number[] = [];
  const shifted: number[] = [];
  const unseen: number[] = [];
  for (let i = 0; i < 50; i++) {
    // One new email at the top: the page changed, 99 of its records did not.
    await big.inject(rawMail({ subject: `Bench new ${i}`, text: 'x' }));
    bare.push(await time(async () => (await fetch(url, { headers })).arrayBuffer()));
    shifted.push(await time(() => client.listEmails({ page: 1, limit: 100 }, { fresh: true })));
    // The poll after it: the same page again.
    listed.push(await time(() => client.listEmails({ page: 1, limit: 100 }, { fresh: true })));
    // A client that has seen none of these records: every one is checked.
    const first = new ServiceClient({ baseUrl: big.baseUrl, teamId: 'demo', token: TOKEN });
    unseen.push(await time(() => first.listEmails({ page: 1, limit: 100 }, { fresh: true })));
  }
  const factor = median(listed) / median(bare);
  kept.track('listEmails, rows a poll re-reads, of a bare fetch', factor, 'x');
  kept.track('listEmails, rows never seen, of a bare fetch', median(unseen) / median(bare), 'x');
  rows.push(['listEmails, 100 rows, as a poll re-reads them (median of 50)', ms(median(listed)), `bare fetch ${ms(median(bare))}`, `${factor.toFixed(2)}x of bare fetch; goal <= 1.3x: ${factor <= 1.3 ? 'met' : 'missed'}`]);
  rows.push(['listEmails, 100 rows, one new at the top (median of 50)', ms(median(shifted)), `bare fetch ${ms(median(bare))}`, `${(median(shifted) / median(bare)).toFixed(2)}x of bare fetch`]);
  rows.push(['listEmails, 100 rows never seen before (median of 50)', ms(median(unseen)), `bare fetch ${ms(median(bare))}`, `${(median(unseen) / median(bare)).toFixed(2)}x of bare fetch; goal <= 1.3x: ${median(unseen) / median(bare) <= 1.3 ? 'met' : 'missed'}`]);
  await big.close();
}

// 7. The reference service with 100k stored emails (its own process, over HTTP
// and SMTP), against the same measures on a store of 1k.
const verdict = (met: boolean) => (met ? 'met' : 'missed');
{
  const small = await measureScale(1_000);
  const large = await measureScale(100_000);
  const k = (f: ScaleFigures) => `${f.count / 1000}k`;
  rows.push([`one change (a star) with ${k(large)} emails, p95 of 400`, ms(large.changeP95), `${k(small)}: ${ms(small.changeP95)}`, `goal <= 1 ms: ${verdict(large.changeP95 <= 1)}`]);
  kept.track('SMTP ingest at 100k', large.ingestPerSecond, 'msg/s', 'higher');
  kept.track('page 1 at 100k, p95', large.page1P95);
  kept.track('search + unread at 100k, p95', large.searchP95);
  kept.track('restart at 100k', large.restartMs);
  rows.push([`SMTP ingest with ${k(large)} emails (${INGEST_MESSAGES} msgs, ${INGEST_SESSIONS} sessions, pipelined; median of 3)`, `${large.ingestPerSecond.toFixed(0)} msg/s`, `${k(small)}: ${small.ingestPerSecond.toFixed(0)} msg/s`, `goal >= 1000 msg/s: ${verdict(large.ingestPerSecond >= 1000)}`]);
  rows.push([`restart with ${k(large)} emails, until listening (median of 3)`, ms(large.restartMs), `${k(small)}: ${ms(small.restartMs)}`, `goal <= 2000 ms: ${verdict(large.restartMs <= 2000)}`]);
  rows.push([`page 1 with ${k(large)} emails, p95 of 200 (median of 5)`, ms(large.page1P95), `${k(small)}: ${ms(small.page1P95)}`, `goal <= 5 ms: ${verdict(large.page1P95 <= 5)}`]);
  rows.push([`search "${SEARCH_TERM}" + unread with ${k(large)}, p95 of 200 (median of 5)`, ms(large.searchP95), `${k(small)}: ${ms(small.searchP95)}`, `goal <= 10 ms: ${verdict(large.searchP95 <= 10)}`]);
  rows.push([`service RSS with ${k(large)} emails, after all of the above`, `${large.rssMiB.toFixed(0)} MiB`, `${k(small)}: ${small.rssMiB.toFixed(0)} MiB`, `goal <= 300 MB: ${verdict(large.rssMiB * 1.048576 <= 300)}`]);
}

// 8. The reader in Chromium (test/bench/reader.ts, its own process): next
// email, opening from the list, big mail. Needs the built renderer.
{
  const { execFileSync } = await import('node:child_process');
  const { existsSync } = await import('node:fs');
  if (!existsSync('out/renderer/index.html')) execFileSync('npx', ['electron-vite', 'build'], { stdio: 'ignore' });
  const output = execFileSync(process.execPath, ['--experimental-strip-types', '--no-warnings', 'test/bench/reader.ts'], { encoding: 'utf8' });
  const r = JSON.parse(output.trim().split('\n').at(-1)!) as ReaderFigures;

  const floor = `a key that changes nothing, to its frame: p95 ${ms(r.floorP95)}`;
  // Nothing paints before the next frame: a key that changes nothing shows where that floor is in this run.
  // The goal (issues 34, 43): within the frame, i.e. no later than a key that changes nothing pressed in the
  // same state and the same frame regime (a display clock), in the same run.
  const nextMet = verdict(r.nextTicksP95 <= r.noopTicksP95 && r.nextLate === 0);
  kept.track('next email (j), p95, to the end of its frame', r.nextPrefetchedP95);
  kept.track('next email (j), display-paced, p95, to its frame presented', r.nextShownP95);
  kept.track('email opened from the list, p95', r.coldOpenP95);
  kept.track('2 MB newsletter, first screen', r.html2mbFirstScreen);
  kept.track('H on the 2 MB newsletter', r.compat2mbReport);
  kept.track('A on the 2 MB newsletter', r.accessibility2mbReport);
  kept.track('B on the 2 MB newsletter', r.compare2mbReport);
  kept.track('10 MB text, first screen', r.text10mbFirstScreen);
  rows.push(['next email, reader open, fetched ahead (j/k, 1,000 emails), to the task after its frame (host idle, drawing at once)', `p50 ${ms(r.nextPrefetchedP50)}, p95 ${ms(r.nextPrefetchedP95)}; in the first frame after the key: ${r.nextInFirstFrame} of ${r.nextPresses}`, floor, '']);
  // Like for like: frames paced by a display clock (60 Hz), the no-op key pressed in the same state and way,
  // each press timed to its frame's presentation in Chromium's own trace (test/bench/presented.ts).
  rows.push([
    `next email (j/k), frames paced as a 60 Hz screen paces them: key to its frame presented (${r.nextShownPresses} presses, Chromium's trace)`,
    `p50 ${ms(r.nextShownP50)}, p95 ${ms(r.nextShownP95)}; shown ${r.nextTicksP95} ticks after the key's, p95; frames late: ${r.nextLate}; the key's own work p95 ${ms(r.nextWorkP95)}`,
    `a key that changes nothing (but a small square), pressed the same way: p50 ${ms(r.noopShownP50)}, p95 ${ms(r.noopShownP95)}; ${r.noopTicksP95} ticks, p95`,
    // A screen shows a frame at a tick: both wait for the same ticks; the ms differ by the press's phase and the frame's own work.
    `goal p95 <= the no-op key's p95, in the ticks a screen shows it at: ${nextMet}`,
  ]);
  rows.push(['an email opened from the list, nothing fetched ahead', `p50 ${ms(r.coldOpenP50)}, p95 ${ms(r.coldOpenP95)}`, floor, `goal p95 <= 100 ms: ${verdict(r.coldOpenP95 <= 100)}`]);
  rows.push(['a 2 MB HTML newsletter, Enter to its first screen (median of 3 newsletters)', ms(r.html2mbFirstScreen), floor, `goal <= 300 ms: ${verdict(r.html2mbFirstScreen <= 300)}`]);
  rows.push(['the long-task observer, shown one 80 ms task on purpose', `saw ${ms(r.longTaskCalibration)}`, '', `goal sees it (>= 75 ms), so the "no task > 50 ms" rows mean something: ${verdict(r.longTaskCalibration >= 75)}`]);
  rows.push([
    'the tester’s tools on the 2 MB newsletter (H, w, D, C, L, 4, V, E, Ctrl+P, A, B): the longest task meanwhile',
    `longest task ${ms(r.tools2mbLongestTask)}; H to its report ${ms(r.compat2mbReport)} (in a worker of main); A ${ms(r.accessibility2mbReport)} (axe-core, light and dark); B ${ms(r.compare2mbReport)} (against the 5 MB one)`,
    floor,
    `goal no task > 50 ms: ${verdict(r.tools2mbLongestTask <= 50)}; H ≤ 1.5 s: ${verdict(r.compat2mbReport <= 1500)}`,
  ]);
  rows.push(['a 5 MB HTML newsletter: first screen, and the longest task meanwhile', `${ms(r.html5mbFirstScreen)}; longest task ${ms(r.html5mbLongestTask)}`, floor, `goal no task > 50 ms: ${verdict(r.html5mbLongestTask <= 50)}`]);
  rows.push(['j pressed while the 5 MB newsletter opens', r.html5mbKeyHonoured ? 'moved the selection' : 'ignored', '', `goal honoured: ${verdict(r.html5mbKeyHonoured)}`]);
  rows.push(['a 10 MB text body, Enter to its first screen', ms(r.text10mbFirstScreen), floor, `goal <= 300 ms: ${verdict(r.text10mbFirstScreen <= 300)}`]);
}

// 9. New mail on This computer: SMTP 250 to the row painted (test/bench/catcher.ts, its own process).
{
  const { execFileSync } = await import('node:child_process');
  const output = execFileSync(process.execPath, ['--experimental-strip-types', '--no-warnings', 'test/bench/catcher.ts'], { encoding: 'utf8' });
  const c = JSON.parse(output.trim().split('\n').at(-1)!) as { arrivalP50: number; arrivalP95: number; floorP95: number; samples: number };
  kept.track('This computer: SMTP 250 to the row painted, p95', c.arrivalP95);
  rows.push([
    `This computer: SMTP 250 to the email's row painted (${c.samples} emails over STARTTLS)`,
    `p50 ${ms(c.arrivalP50)}, p95 ${ms(c.arrivalP95)}`,
    `a key that changes nothing, to its frame: p95 ${ms(c.floorP95)}`,
    `goal p95 <= 250 ms: ${verdict(c.arrivalP95 <= 250)} (the 30 s poll it replaces)`,
  ]);
}

// 10. The tester's loop: N, mail to the fresh address by SMTP, its code on the clipboard (test/bench/loop.ts, its own process).
{
  const { execFileSync } = await import('node:child_process');
  const output = execFileSync(process.execPath, ['--experimental-strip-types', '--no-warnings', 'test/bench/loop.ts'], { encoding: 'utf8' });
  const l = JSON.parse(output.trim().split('\n').at(-1)!) as { catcherP50: number; catcherP95: number; remoteP50: number; remoteP95: number; remote429: number; catcherSamples: number; remoteSamples: number };
  kept.track("tester's loop on This computer, p95", l.catcherP95);
  rows.push([
    `the tester's loop on This computer: SMTP 250 to the code on the clipboard, the email open (${l.catcherSamples} turns of N)`,
    `p50 ${ms(l.catcherP50)}, p95 ${ms(l.catcherP95)}`,
    'copying it by hand: find, select, copy',
    `goal p95 <= 250 ms: ${verdict(l.catcherP95 <= 250)}`,
  ]);
  rows.push([
    `the same on a remote server, the watched inbox asked every 2 s under a 60-a-minute limit (${l.remoteSamples} turns, one every 8 s)`,
    `p50 ${ms(l.remoteP50)}, p95 ${ms(l.remoteP95)}; ${l.remote429} answers 429`,
    'the 30 s poll of the list it replaces',
    `goal p95 <= 3 s, no 429: ${verdict(l.remoteP95 <= 3000 && l.remote429 === 0)}`,
  ]);
}

// 10b. The catcher for test suites (npm run catch) beside MailDev 3, fed by the same SMTP client (test/bench/catcher-api.ts).
{
  const { execFileSync } = await import('node:child_process');
  const output = execFileSync(process.execPath, ['--experimental-strip-types', '--no-warnings', 'test/bench/catcher-api.ts'], { encoding: 'utf8' });
  type Side = { ingestPerSecond: number; visibleP50: number; visibleP95: number; searchP50: number; searchP95: number; rssMiB: number };
  const a = JSON.parse(output.trim().split('\n').at(-1)!) as { waitP50: number; waitP95: number; roundTripP95: number; samples: number; messages: number; warmUp: number; sessions: number; ours: Side; maildev: Side };
  kept.track('the wait: its answer against SMTP 250, p95', a.waitP95);
  rows.push([
    `the wait (npm run catch): its answer against the SMTP 250, as the test sees both (${a.samples} emails; negative: the answer came first)`,
    `p50 ${ms(a.waitP50)}, p95 ${ms(a.waitP95)}`,
    `a bare GET /health: p95 ${ms(a.roundTripP95)}`,
    `goal p95 <= 20 ms: ${verdict(a.waitP95 <= 20)}`,
  ]);
  const { ours, maildev } = a;
  rows.push([
    `SMTP ingest, ${a.messages.toLocaleString('en')} messages over ${a.sessions} sessions (after ${a.warmUp.toLocaleString('en')} each to warm up, two rounds in turn, the better kept), both on disk (npm run catch | MailDev 3)`,
    `${ours.ingestPerSecond.toFixed(0)} msg/s`,
    `MailDev ${maildev.ingestPerSecond.toFixed(0)} msg/s`,
    `${(ours.ingestPerSecond / maildev.ingestPerSecond).toFixed(2)}x MailDev's; goal >= 2x: ${verdict(ours.ingestPerSecond >= 2 * maildev.ingestPerSecond)}`,
  ]);
  rows.push([
    'SMTP 250 to visible through its own API (a search for its subject)',
    `p50 ${ms(ours.visibleP50)}, p95 ${ms(ours.visibleP95)}`,
    `MailDev p50 ${ms(maildev.visibleP50)}, p95 ${ms(maildev.visibleP95)}`,
    `goal p95 no worse than MailDev's: ${verdict(ours.visibleP95 <= maildev.visibleP95)}`,
  ]);
  rows.push([
    `one address among ${(a.messages + a.warmUp).toLocaleString('en')} (to:needle@…)`,
    `p50 ${ms(ours.searchP50)}, p95 ${ms(ours.searchP95)}`,
    `MailDev p50 ${ms(maildev.searchP50)}, p95 ${ms(maildev.searchP95)}`,
    `goal p95 no worse than MailDev's: ${verdict(ours.searchP95 <= maildev.searchP95)}`,
  ]);
  rows.push(['RSS after all of the above', `${ours.rssMiB.toFixed(0)} MiB`, `MailDev ${maildev.rssMiB.toFixed(0)} MiB`, `goal no more than MailDev's: ${verdict(ours.rssMiB <= maildev.rssMiB)}`]);
}

// 10c. Where ingest's time goes: the same SMTP front and load with less or more behind it (test/bench/ingest-parts.ts).
{
  const { execFileSync } = await import('node:child_process');
  const output = execFileSync(process.execPath, ['--experimental-strip-types', '--no-warnings', 'test/bench/ingest-parts.ts'], { encoding: 'utf8' });
  const parts = JSON.parse(output.trim().split('\n').at(-1)!) as { sessions: number; figures: { name: string; perSecond: number; cpuMicros: number }[] };
  const [before, after] = [parts.figures.at(-2)!, parts.figures.at(-1)!];
  for (const figure of parts.figures) {
    rows.push([
      `ingest's parts, ${parts.sessions} sessions, the service in the bench's process: ${figure.name}`,
      `${figure.perSecond.toFixed(0)} msg/s`,
      `${figure.cpuMicros.toFixed(0)} µs of CPU a message`,
      figure === after ? `${(after.perSecond / before.perSecond).toFixed(2)}x the rate with mailparser for every message, ${(before.cpuMicros / after.cpuMicros).toFixed(2)}x less CPU` : '',
    ]);
  }
}

// 12. The first screen: navigation start to the first rows painted, with and without the last run's snapshot
// (test/bench/first-screen.ts, its own process).
{
  const { execFileSync } = await import('node:child_process');
  const output = execFileSync(process.execPath, ['--experimental-strip-types', '--no-warnings', 'test/bench/first-screen.ts'], { encoding: 'utf8' });
  type P = { p50: number; p95: number };
  const f = JSON.parse(output.trim().split('\n').at(-1)!) as {
    starts: number;
    breakdown: { page: number; bundleFetched: number; bundleRun: number; snapshotShown: number; rows: number };
    cold: P;
    snapshot: P;
    demoCold: P;
    demoSnapshot: P;
    catcherSnapshot: P;
  };
  kept.track('first rows, 1,000 emails, from the snapshot, p95', f.snapshot.p95);
  kept.track('first rows, 1,000 emails, no snapshot, p95', f.cold.p95);
  kept.track('first rows on the demo, from the snapshot, p95', f.demoSnapshot.p95);
  kept.track('first rows on This computer, from the snapshot, p95', f.catcherSnapshot.p95);
  rows.push([
    `first rows painted, 1,000 emails on a reference service, from the last run's snapshot (${f.starts} starts each, interleaved)`,
    `p50 ${ms(f.snapshot.p50)}, p95 ${ms(f.snapshot.p95)}`,
    `no snapshot, rows from the server: p50 ${ms(f.cold.p50)}, p95 ${ms(f.cold.p95)}`,
    `goal p95 <= 300 ms: ${verdict(f.snapshot.p95 <= 300)}; ${ratio(f.snapshot.p50, f.cold.p50)} of the p50 without`,
  ]);
  const b = f.breakdown;
  rows.push([
    'where a start from the snapshot spends its time (p50, from navigation start)',
    `rows painted at ${ms(b.rows)}`,
    `page ${ms(b.page)}, bundle fetched ${ms(b.bundleFetched)}, bundle run ${ms(b.bundleRun)}, snapshot shown ${ms(b.snapshotShown)}`,
    `parsing and running the bundle ${ms(b.bundleRun - b.bundleFetched)}; React's first render and paint ${ms(b.rows - b.snapshotShown)}`,
  ]);
  rows.push([
    'the same on the demo (its service starts in a worker with the window)',
    `p50 ${ms(f.demoSnapshot.p50)}, p95 ${ms(f.demoSnapshot.p95)}`,
    `no snapshot: p50 ${ms(f.demoCold.p50)}, p95 ${ms(f.demoCold.p95)}`,
    `goal p95 <= 300 ms: ${verdict(f.demoSnapshot.p95 <= 300)}; ${ratio(f.demoSnapshot.p50, f.demoCold.p50)} of the p50 without`,
  ]);
  rows.push([
    'the same on This computer (the catcher, 60 emails caught over SMTP)',
    `p50 ${ms(f.catcherSnapshot.p50)}, p95 ${ms(f.catcherSnapshot.p95)}`,
    `1,000 emails from the snapshot: p50 ${ms(f.snapshot.p50)}`,
    `goal p95 <= 300 ms: ${verdict(f.catcherSnapshot.p95 <= 300)}`,
  ]);
}

// 11. The code and link finder on the hand-labelled corpus (142 emails through the service and main's client),
// against the finder it replaced (test/bench/previous-finder.ts), on the same bodies.
{
  const { readCorpus, judge } = await import('../support/finder-eval.ts');
  const previous = await import('./previous-finder.ts');
  const { insightsOf } = await import('../../src/shared/domain/mail-insights.ts');
  const read = await readCorpus();
  const now = judge(read);
  const before = read.map(({ mail, subject, body }) => {
    const { text, links } = body.format === 'html' ? previous.htmlTextAndLinks(body.content) : { text: body.content, links: previous.linksOfText(body.content) };
    return { mail, code: previous.findCode(subject, text)?.code ?? null, link: previous.findActionLink(links)?.url ?? null };
  });
  const figures = (right: number, shown: number, labelled: number) =>
    `precision ${((100 * right) / Math.max(shown, 1)).toFixed(0)}% (${right}/${shown}), recall ${((100 * right) / labelled).toFixed(0)}% (${right}/${labelled})`;
  const prevCode = { shown: before.filter((b) => b.code !== null).length, right: before.filter((b) => b.code !== null && b.code === b.mail.code).length };
  const prevLink = { shown: before.filter((b) => b.link !== null).length, right: before.filter((b) => b.link !== null && b.link === b.mail.link).length };
  rows.push([`finder: codes on ${read.length} hand-labelled emails, 12 languages, 15 charsets`, figures(now.code.right, now.code.shown, now.code.labelled), `previous finder: ${figures(prevCode.right, prevCode.shown, now.code.labelled)}`, `goal precision 100%, recall >= 95%: ${verdict(now.code.precision === 1 && now.code.recall >= 0.95)}`]);
  rows.push([`finder: main links on the same emails`, figures(now.link.right, now.link.shown, now.link.labelled), `previous finder: ${figures(prevLink.right, prevLink.shown, now.link.labelled)}`, `goal precision 100%, recall >= 95%: ${verdict(now.link.precision === 1 && now.link.recall >= 0.95)}`]);
  // Time: every corpus body through each finder, 20 rounds, the median round per email.
  const rounds = (run: () => void) => median(Array.from({ length: 20 }, () => {
    const started = performance.now();
    run();
    return performance.now() - started;
  })) / read.length;
  const newTime = rounds(() => read.forEach(({ subject, body }) => insightsOf(subject, body)));
  const oldTime = rounds(() =>
    read.forEach(({ subject, body }) => {
      const { text, links } = body.format === 'html' ? previous.htmlTextAndLinks(body.content) : { text: body.content, links: previous.linksOfText(body.content) };
      previous.findCode(subject, text);
      previous.findActionLink(links);
    }),
  );
  kept.track('finder, per corpus email', newTime);
  rows.push(['finder: time per corpus email (median of 20 rounds)', ms(newTime), `previous finder ${ms(oldTime)}`, `${ratio(newTime, oldTime)} of previous; goal well under a frame (16 ms)`]);
  // Hostile shapes (the security suite's bodies and a wall of one letter), as the reader hands them in (100 KB):
  // the slowest of each shape's best of 5, beside the previous finder on the same bodies.
  const hostile = [
    `${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}`,
    '<b>x'.repeat(73_250),
    '<div></x>'.repeat(10_000),
    `<p>${'a'.repeat(100_000)}</p>`,
    `<p>${'1 '.repeat(50_000)}</p>`,
    `<table>${'<tr><td>Code</td><td>123456</td><td>x@y.test</td></tr>'.repeat(2_000)}</table>`,
  ].map((html) => ({ format: 'html' as const, content: html.slice(0, 100_000) }));
  const worst = (run: (body: { format: 'html'; content: string }) => void) =>
    Math.max(...hostile.map((body) => Math.min(...Array.from({ length: 5 }, () => { const started = performance.now(); run(body); return performance.now() - started; }))));
  const hostileNew = worst((body) => insightsOf('Subject', body));
  const hostileOld = worst((body) => {
    const { text, links } = previous.htmlTextAndLinks(body.content);
    previous.findCode('Subject', text);
    previous.findActionLink(links);
  });
  rows.push([`finder: the slowest of ${hostile.length} hostile bodies of 100 KB (deep nesting, unclosed tags, one-letter walls, number walls, a 2,000-row table)`, ms(hostileNew), `previous finder ${ms(hostileOld)}`, `goal <= 50 ms (no long task): ${verdict(hostileNew <= 50)}`]);
}

const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
console.log(`Inbox Desk benchmarks (node ${process.version}, ${new Date().toISOString()})`);
for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c]!)).join('  |  '));

// Each tracked figure beside the kept run's (a release's), so a regression shows here.
const against = kept.rows();
if (against) {
  const keptWidths = [0, 1, 2, 3].map((c) => Math.max(...against.rows.map((r) => r[c]!.length)));
  console.log(`\n${against.title}`);
  for (const row of against.rows) console.log(row.map((cell, c) => cell.padEnd(keptWidths[c]!)).join('  |  '));
}
const keepAs = process.argv.indexOf('--keep');
if (keepAs !== -1) kept.save(process.argv[keepAs + 1] ?? 'unnamed');
