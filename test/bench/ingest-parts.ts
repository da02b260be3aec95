/**
 * Where SMTP ingest's time goes (issue 39's goal of twice MailDev's rate): the
 * bench's own load (8 pipelined sessions, from a process of their own) against
 * the service's real SMTP front (smtp.ts) with less or more of the ingest
 * behind it: nothing (the 250 at once), the MIME parse alone (mailparser's, and
 * ingest's own: common shapes in place, common-mail.ts), the store alone (the
 * parse answered from a table), and all of it, on disk in one thread as `npm
 * run catch` runs it, with mailparser for every message (as before
 * common-mail.ts) and as ingest parses now. Each figure is the better of two
 * rounds of 5,000 after a warm-up, with the CPU the service used per message.
 * Prints JSON for run.ts.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseMessage, parseWithMailparser, type ParsedMessage } from '../../src/server/ingest.ts';
import { ReferenceService } from '../../src/server/service.ts';
import { startSmtp } from '../../src/server/smtp.ts';
import { smtpIngestRate } from './scale.ts';

const ROUND = 5000;
const SESSIONS = 8;

// The load runs in a child (this file again, with its port): its CPU is not the service's.
if (process.argv[2] === 'load') {
  const [port, count, offset] = process.argv.slice(3).map(Number);
  const rate = await smtpIngestRate(port!, count!, SESSIONS, offset!);
  process.send!({ rate });
  process.exit(0);
}

const load = (port: number, count: number, offset: number) =>
  new Promise<number>((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['load', String(port), String(count), String(offset)], { execArgv: ['--experimental-strip-types', '--no-warnings'] });
    child.once('message', (message) => resolve((message as { rate: number }).rate));
    child.once('error', reject);
  });

type Ingest = (service: ReferenceService, raw: Buffer, recipients: string[]) => Promise<unknown>;

/** The same message parsed once: the store alone then pays for none of the parse. */
let parsedOnce: ParsedMessage | null = null;
const parsedFromTable = async (raw: Buffer) => (parsedOnce ??= await parseMessage(raw));
const variants: { name: string; ingest: Ingest; parse?: (raw: Buffer) => Promise<ParsedMessage> }[] = [
  { name: 'SMTP alone (250 at once)', ingest: async () => [] },
  { name: 'SMTP + MIME parse by mailparser', ingest: (_service, raw) => parseWithMailparser(raw) },
  { name: 'SMTP + MIME parse as ingest parses', ingest: (_service, raw) => parseMessage(raw) },
  { name: 'SMTP + store', ingest: (service, raw, recipients) => service.ingest(raw, { recipients }), parse: parsedFromTable },
  { name: 'all of it, mailparser for every message', ingest: (service, raw, recipients) => service.ingest(raw, { recipients }), parse: parseWithMailparser },
  { name: 'all of it (npm run catch)', ingest: (service, raw, recipients) => service.ingest(raw, { recipients }) },
];

const figures: { name: string; perSecond: number; cpuMicros: number }[] = [];
let offset = 0;
for (const { name, ingest, parse } of variants) {
  const dataDir = await mkdtemp(join(tmpdir(), 'bench-ingest-parts-'));
  const service = new ReferenceService({ teams: [{ id: 'this-computer', token: 'bench' }], dataDir, ...(parse ? { parse } : {}) });
  // smtp.ts asks the service for its chaos and hands it each message.
  const front = { chaos: service.chaos, ingest: (raw: Buffer, options: { recipients?: string[] }) => ingest(service, raw, options.recipients ?? []) } as unknown as ReferenceService;
  const smtp = await startSmtp(front, { port: 0 });
  await load(smtp.port, 1000, (offset += 10_000)); // V8 optimizes the path first
  let best = { perSecond: 0, cpuMicros: 0 };
  for (let round = 0; round < 2; round++) {
    await new Promise((r) => setTimeout(r, 300));
    const before = process.cpuUsage();
    const perSecond = await load(smtp.port, ROUND, (offset += 10_000));
    const used = process.cpuUsage(before);
    if (perSecond > best.perSecond) best = { perSecond, cpuMicros: (used.user + used.system) / ROUND };
  }
  figures.push({ name, ...best });
  if (process.env.BENCH_VERBOSE) console.error(`${name}: ${best.perSecond.toFixed(0)} msg/s, ${best.cpuMicros.toFixed(0)} µs of CPU a message`);
  await smtp.close();
  service.close();
  await rm(dataDir, { recursive: true, force: true });
}
console.log(JSON.stringify({ sessions: SESSIONS, round: ROUND, figures }));
