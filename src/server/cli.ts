#!/usr/bin/env node
/**
 * npm run server -- [options]: the reference service on its own. `--help` lists
 * the options (cli-options.ts); a bad option or a failed start is one line and a
 * non-zero exit, never a stack.
 */
import { resolve } from 'node:path';
import { FLAVOR_RECORDS } from '../shared/flavors/index.ts';
import { folderProblem, parseCli, startError, usage } from './cli-options.ts';
import { randomToken, startReferenceService, type RunningService } from './index.ts';
import { startParsePool } from './parse-pool.ts';

const NAME = 'inbox-desk-server';
const parsed = parseCli(process.argv.slice(2));
if (parsed.kind === 'help') {
  console.log(usage());
  process.exit(0);
}
if (parsed.kind === 'error') {
  console.error(`${NAME}: ${parsed.message}\n${usage().split('\n')[0]}  (--help lists them)`);
  process.exit(2);
}
const options = parsed.options;
const fail = (line: string): never => {
  console.error(`${NAME}: ${line}`);
  process.exit(1);
};

const seedDir = options.seed === undefined ? undefined : resolve(options.seed);
const dataDir = options.data === undefined ? undefined : resolve(options.data);
const folderError = (seedDir && folderProblem('seed', seedDir)) || (dataDir && folderProblem('data', dataDir));
if (folderError) fail(folderError);

const started = Date.now();
const token = options.token ?? randomToken();
const parsePool = startParsePool();
let running: RunningService;
try {
  running = await startReferenceService({
    port: options.port,
    host: options.host,
    teams: [{ id: options.team, token }],
    seedDir,
    dataDir,
    smtpPort: options.smtpPort,
    rateLimit: options.rateLimit,
    allowPrivateWebhooks: options.allowPrivateWebhooks,
    flavor: options.flavor,
    basic: options.basic,
    automations: options.automations,
    forward: options.forward,
    parse: (raw) => parsePool.parse(raw),
  });
} catch (error) {
  await parsePool.close();
  fail(startError(error, options));
}
// Ctrl+C under npm reaches node twice (from the terminal and from npm passing it on):
// every signal after the first waits for the same clean close, within a deadline.
// Set before the address is printed: whoever reads it may stop the service at once.
let closing: Promise<void> | null = null;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (closing) return;
    setTimeout(() => {
      console.error(`${NAME}: the store did not close within 10 s; stopping anyway`);
      process.exit(1);
    }, 10_000).unref();
    closing = running
      .close()
      .then(() => parsePool.close())
      .then(() => process.exit(0));
  });
}

const emails = running!.service.team(options.team).count();
console.log(`Reference service up in ${Date.now() - started} ms with ${emails} emails`);
if (!FLAVOR_RECORDS[options.flavor].teams) {
  console.log(`Base URL: ${running!.baseUrl}/api (MailCare)${options.basic ? `, login ${options.basic.user}` : ', no login'}`);
} else {
  console.log(`Base URL: ${running!.baseUrl}/api/teams/${options.team}`);
  console.log(`Token:    ${token}`);
}
if (running!.smtpPort !== null) console.log(`SMTP:     ${running!.smtpHost}:${running!.smtpPort} (loopback only)`);

