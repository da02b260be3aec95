#!/usr/bin/env node
/**
 * npm run server -- [options]: the reference service on its own. `--help` lists
 * the options (cli-options.ts); a bad option or a failed start is one line and a
 * non-zero exit, never a stack.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { FLAVOR_RECORDS } from '../shared/flavors/index.ts';
import { folderProblem, parseCli, startError, usage } from './cli-options.ts';
import { randomToken, startReferenceService, type RunningService } from './index.ts';
import { startParsePool } from './parse-pool.ts';
import { selfSignedCertificate } from './self-signed.ts';
import { keptToken } from './catcher-api/token.ts';

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

/** The certificate for STARTTLS and SMTPS: the user's, or one made once and kept in --data (in memory without it). */
function certificate(): { key: string; cert: string } | undefined {
  if (options.smtpPort === undefined) return undefined;
  if (options.tlsCert && options.tlsKey) {
    try {
      return { cert: readFileSync(resolve(options.tlsCert), 'utf8'), key: readFileSync(resolve(options.tlsKey), 'utf8') };
    } catch (error) {
      return fail(`cannot read the certificate: ${(error as Error).message}`);
    }
  }
  const kept = dataDir ? { cert: join(dataDir, 'smtp-cert.pem'), key: join(dataDir, 'smtp-key.pem') } : null;
  if (kept && existsSync(kept.cert) && existsSync(kept.key)) return { cert: readFileSync(kept.cert, 'utf8'), key: readFileSync(kept.key, 'utf8') };
  const made = selfSignedCertificate({ hosts: [options.smtpHost] });
  if (kept) {
    writeFileSync(kept.key, made.key, { mode: 0o600 });
    writeFileSync(kept.cert, made.cert);
  }
  return made;
}

const started = Date.now();
// The catcher keeps its token beside its mail: a suite's config outlives a restart.
const token = options.token ?? (options.catcher ? keptToken(dataDir) : randomToken());
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
    smtp: {
      host: options.smtpHost,
      tls: certificate(),
      ...(options.smtpsPort !== undefined ? { tlsPort: options.smtpsPort } : {}),
      auth: options.smtpAuth,
      requireAuth: options.smtpRequireAuth,
      maxRecipients: options.smtpMaxRecipients,
    },
    retention: { ...(options.keep !== undefined ? { keep: options.keep } : {}), ...(options.keepDays !== undefined ? { days: options.keepDays } : {}) },
    rateLimit: options.rateLimit,
    allowPrivateWebhooks: options.allowPrivateWebhooks,
    ...(options.spamd ? { spamd: options.spamd } : {}),
    flavor: options.flavor,
    basic: options.basic,
    automations: options.automations,
    forward: options.forward,
    parse: (raw) => parsePool.parse(raw),
    catcher: options.catcher,
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
if (options.catcher) {
  const api = running!.baseUrl;
  console.log(`Mail:     ${dataDir} (the newest ${options.keep ?? 'all'} kept)`);
  console.log(`Mailpit:  ${api}/api/v1 (Mailpit's API; Basic with any user and the token as password, or Bearer)`);
  console.log(`Wait:     curl -H "Authorization: Bearer ${token}" "${api}/api/teams/${options.team}/emails/wait?inbox=you@example.test&timeout=30"`);
  console.log(`MCP:      ${api}/mcp (streamable HTTP, Authorization: Bearer ${token})`);
}
if (options.relay) {
  // Set on the command line: that is the operator's consent to this relay.
  running!.service.relay.set(options.relay);
  console.log(`Release:  through ${options.relay.host}:${options.relay.port}, only to ${options.relay.allowlist.join(', ')}`);
}
if (running!.smtpPort !== null) {
  const auth = options.smtpAuth === 'off' ? 'no AUTH' : options.smtpAuth === 'any' ? 'AUTH with any user and password' : `AUTH as ${options.smtpAuth.user}`;
  console.log(`SMTP:     ${running!.smtpHost}:${running!.smtpPort} (STARTTLS, ${auth})${running!.smtpTlsPort !== null ? `, TLS on ${running!.smtpTlsPort}` : ''}`);
}

