/**
 * The catcher for test suites (npm run catch) from outside, beside MailDev 3
 * fed by the same SMTP client in the same run, both keeping mail on disk: the
 * wait's answer against SMTP 250 (both as the test's side sees them); ingest of
 * 10,000 messages over 8 sessions (after a warm-up of 1,000 each, two rounds of
 * 5,000 in turn, the better kept); SMTP 250 to visible through each one's own
 * API; a search for one address among the 11,000; each process's RSS after.
 * Prints JSON for run.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import { freePort } from '../support/free-port.ts';
import { serverNodeArgs } from '../support/server-command.ts';
import { percentile, rssMiB, smtpIngestRate } from './scale.ts';

const MESSAGES = 10_000;
const SESSIONS = 8;
const SAMPLES = 40;
const WARM_UP = 1000;

function started(child: ChildProcess, ready: RegExp, what: string): Promise<string> {
  return new Promise((done, fail) => {
    let output = '';
    const timer = setTimeout(() => fail(new Error(`${what} did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        done(output);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`${what} exited ${code}: ${output}`)));
  });
}

async function until(check: () => Promise<boolean>): Promise<number> {
  for (;;) {
    if (await check()) return performance.now();
  }
}

interface Target {
  name: string;
  pid: number;
  smtpPort: number;
  /** True when a search for this subject finds its message. */
  shows(subject: string): Promise<boolean>;
  search(address: string): Promise<number>;
}

/** CPU time a process has used so far, in ms (Linux's /proc). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Waits (at most 60 s) until these processes use under 5% of a core over half a second. */
async function quiet(pids: number[]): Promise<void> {
  for (let tries = 0; tries < 120; tries++) {
    const before = await Promise.all(pids.map(cpuMs));
    await new Promise((r) => setTimeout(r, 500));
    const after = await Promise.all(pids.map(cpuMs));
    if (after.every((used, i) => used - before[i]! < 25)) return;
  }
}

const dirs: string[] = [];
const children: ChildProcess[] = [];
try {
  // Ours, as `npm run catch` runs it, keeping every message of the run.
  const oursData = await mkdtemp(join(tmpdir(), 'bench-catch-'));
  dirs.push(oursData);
  const script = (await import('../../package.json', { with: { type: 'json' } })).default.scripts.catch;
  const flags = script.slice(script.indexOf('-- ') + 3).split(/\s+/);
  const ours = spawn(process.execPath, [...serverNodeArgs(), ...flags, '--port', '0', '--smtp-port', '0', '--data', oursData, '--keep', String(MESSAGES * 2)], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(ours);
  const oursOut = await started(ours, /SMTP: +\S+:\d+/, 'npm run catch');
  const api = /Base URL: (http:\/\/[\d.:]+)\//.exec(oursOut)![1]!;
  const token = /Token: +(\S+)/.exec(oursOut)![1]!;
  const auth = { Authorization: `Bearer ${token}` };
  const oursTarget: Target = {
    name: 'inbox-desk',
    pid: ours.pid!,
    smtpPort: Number(/SMTP: +\S+:(\d+)/.exec(oursOut)![1]),
    shows: async (subject) => ((await (await fetch(`${api}/api/v1/search?query=${encodeURIComponent(`subject:${subject}`)}`, { headers: auth })).json()) as { messages_count: number }).messages_count === 1,
    search: async (address) => ((await (await fetch(`${api}/api/v1/search?query=to:${encodeURIComponent(address)}`, { headers: auth })).json()) as { messages_count: number }).messages_count,
  };

  // MailDev 3, on disk too, its web API on loopback.
  const maildevData = await mkdtemp(join(tmpdir(), 'bench-maildev-'));
  dirs.push(maildevData);
  const [mdSmtp, mdWeb] = [await freePort(), await freePort()];
  const maildev = spawn(process.execPath, [resolve('node_modules/maildev/dist/bin/maildev.js'), '--smtp', String(mdSmtp), '--web', String(mdWeb), '--ip', '127.0.0.1', '--web-ip', '127.0.0.1', '--mail-directory', maildevData], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(maildev);
  const mdApi = `http://127.0.0.1:${mdWeb}/api`;
  for (let i = 0; i < 300; i++) {
    const up = await fetch(`${mdApi}/healthz`).then((r) => r.ok, () => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const maildevTarget: Target = {
    name: 'maildev',
    pid: maildev.pid!,
    smtpPort: mdSmtp,
    // Its list orders by the Date header, to the second: a subject search is what finds the newest.
    shows: async (subject) => ((await (await fetch(`${mdApi}/email/summary?search=${encodeURIComponent(subject)}`)).json()) as { total: number }).total === 1,
    search: async (address) => ((await (await fetch(`${mdApi}/email/summary?search=${encodeURIComponent(address)}`)).json()) as { total: number }).total,
  };

  // 1. The wait: SMTP 250 to the held request's answer, against a bare round trip to the same service.
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: oursTarget.smtpPort, secure: false, ignoreTLS: true, pool: true });
  const wait: number[] = [];
  const roundTrip: number[] = [];
  for (let i = 0; i < SAMPLES + 5; i++) {
    const to = `wait-${i}@bench.test`;
    const answered = fetch(`${api}/api/teams/this-computer/emails/wait?inbox=${to}&timeout=10`, { headers: auth }).then(async (r) => {
      await r.arrayBuffer();
      return performance.now();
    });
    await new Promise((r) => setTimeout(r, 5));
    await transport.sendMail({ from: 'app@bench.test', to, subject: `Wait ${i}`, text: `Your code is ${100000 + i}.` });
    const accepted = performance.now();
    const at = await answered;
    const t0 = performance.now();
    await (await fetch(`${api}/health`)).arrayBuffer();
    if (i >= 5) {
      // Negative where the answer reached the test before its own 250 did: the store told the wait first.
      wait.push(at - accepted);
      roundTrip.push(performance.now() - t0);
    }
  }
  transport.close();

  const figures: Record<string, Record<string, number>> = {};
  // 2. Ingest: the same pipelined client, 8 sessions, 10,000 messages each, in two rounds of 5,000 taken
  // in turn (ours, MailDev, ours, MailDev), each one's better round kept: a round disturbed by the
  // machine counts against neither. Neither runs while the other still works through what it took
  // (ours indexes its search in the background after a burst).
  // First a warm-up of 1,000 messages each, not counted (as the service's other ingest figures
  // are taken, scale.ts): V8 optimizes each one's code for that long after a start.
  for (const target of [oursTarget, maildevTarget]) {
    await quiet([ours.pid!, maildev.pid!]);
    await smtpIngestRate(target.smtpPort, WARM_UP, SESSIONS, 2 * MESSAGES);
  }
  const rounds = new Map<string, number[]>();
  for (let round = 0; round < 2; round++) {
    for (const target of [oursTarget, maildevTarget]) {
      await quiet([ours.pid!, maildev.pid!]);
      const rate = await smtpIngestRate(target.smtpPort, MESSAGES / 2, SESSIONS, (round * MESSAGES) / 2);
      rounds.set(target.name, [...(rounds.get(target.name) ?? []), rate]);
    }
  }
  for (const target of [oursTarget, maildevTarget]) {
    await quiet([ours.pid!, maildev.pid!]);
    const rate = Math.max(...rounds.get(target.name)!);
    if (process.env.BENCH_VERBOSE) console.error(`${target.name}: ingest ${rounds.get(target.name)!.map((r) => r.toFixed(0)).join(', ')} msg/s`);
    // One to a needle among the 10,000.
    const needle = nodemailer.createTransport({ host: '127.0.0.1', port: target.smtpPort, secure: false, ignoreTLS: true, pool: true });
    await needle.sendMail({ from: 'app@bench.test', to: 'needle@bench.test', subject: 'The one to find', text: 'Find me.' });
    // 3. SMTP 250 to visible through the API (a search for its subject), asked as fast as it answers.
    const visible: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const subject = `visible-${target.name}-${i}-${Date.now().toString(36)}`;
      await needle.sendMail({ from: 'app@bench.test', to: `seen-${i}@bench.test`, subject, text: 'hello' });
      const accepted = performance.now();
      visible.push(Math.max(0, (await until(() => target.shows(subject))) - accepted));
    }
    needle.close();
    if (process.env.BENCH_VERBOSE) console.error(`${target.name}: visible p95 ${percentile(visible, 95).toFixed(1)} ms`);
    // 4. One address among 10,000.
    const search: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t0 = performance.now();
      const found = await target.search('needle@bench.test');
      search.push(performance.now() - t0);
      if (found !== 1) throw new Error(`${target.name}: the needle search found ${found}`);
    }
    figures[target.name] = {
      ingestPerSecond: rate,
      visibleP50: percentile(visible, 50),
      visibleP95: percentile(visible, 95),
      searchP50: percentile(search, 50),
      searchP95: percentile(search, 95),
      rssMiB: await rssMiB(target.pid),
    };
  }
  console.log(JSON.stringify({ waitP50: percentile(wait, 50), waitP95: percentile(wait, 95), roundTripP95: percentile(roundTrip, 95), samples: SAMPLES, messages: MESSAGES, warmUp: WARM_UP, sessions: SESSIONS, ours: figures['inbox-desk'], maildev: figures.maildev }));
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
}
