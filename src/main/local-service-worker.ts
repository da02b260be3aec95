/**
 * A reference service in a thread of its own: the demo (its corpus, in
 * memory) or the catcher (its data folder, SMTP on the user's port). Whatever
 * a request or a message makes it do (parse, match a pattern, post a
 * webhook), main's event loop only routes the app's calls and never waits on
 * it. It tells main of each arrival at once (local-service.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { randomToken, startReferenceService, type RunningService } from '../server/index.ts';
import { keptToken } from '../server/catcher-api/token.ts';
import { selfSignedCertificate } from '../server/self-signed.ts';
import type { ChaosSettings } from '../shared/domain/chaos.ts';
import type { RelayConfig } from '../shared/domain/relay.ts';
import { releaseStored } from '../server/relay.ts';
import type { LocalServiceConfig, LocalServiceMessage } from './local-service.ts';

const config = workerData as LocalServiceConfig;
// A catcher with an API for tests keeps its token beside its mail: a suite's config outlives a restart.
const team = { id: config.teamId, token: config.api ? keptToken(config.dataDir) : randomToken() };
const post = (message: LocalServiceMessage) => parentPort!.postMessage(message);

/** The catcher's certificate: made once, kept beside its mail. */
function certificate(dir: string | undefined, host: string): { cert: string; key: string } {
  if (!dir) return selfSignedCertificate({ hosts: [host] });
  const cert = join(dir, 'smtp-cert.pem');
  const key = join(dir, 'smtp-key.pem');
  if (existsSync(cert) && existsSync(key)) return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
  mkdirSync(dir, { recursive: true });
  const made = selfSignedCertificate({ hosts: [host] });
  writeFileSync(key, made.key, { mode: 0o600 });
  writeFileSync(cert, made.cert);
  return made;
}

// A stop asked while the service starts: it closes as soon as it has started. Cut off
// instead (terminate), a thread in the middle of opening its SQLite store could take the
// whole process down with it.
let running: RunningService | null = null;
let stopAsked = false;
let closing = false;
const close = (running: RunningService) => {
  if (closing) return;
  closing = true;
  void running.close().finally(() => parentPort!.close());
};
parentPort!.on('message', (message: unknown) => {
  if (message !== 'stop') return;
  stopAsked = true;
  if (running) close(running);
});

try {
  const smtp = config.smtp;
  running = await startReferenceService({
    teams: [team],
    ...(config.seedDir ? { seedDir: config.seedDir } : {}),
    ...(config.dataDir ? { dataDir: config.dataDir } : {}),
    ...(config.retention ? { retention: config.retention } : {}),
    ...(config.spamd ? { spamd: config.spamd } : {}),
    rateLimit: 0,
    ...(config.api ? { catcher: true, publicApi: config.api } : {}),
    ...(smtp
      ? {
          smtpPort: smtp.port,
          smtp: {
            host: smtp.host,
            tls: certificate(config.dataDir, smtp.host),
            ...(smtp.tlsPort !== null ? { tlsPort: smtp.tlsPort } : {}),
            auth: smtp.auth,
            requireAuth: smtp.requireAuth,
            ...(smtp.maxRecipients !== undefined ? { maxRecipients: smtp.maxRecipients } : {}),
          },
        }
      : {}),
  });
} catch (error) {
  // Said to main in words it can pass on (a port in use, an address not of this computer); the thread then ends.
  const err = error as NodeJS.ErrnoException & { port?: number };
  post({ type: 'failed', code: err.code ?? null, port: err.port ?? null, message: err.message });
  parentPort!.close();
}
if (running && stopAsked) close(running);
else if (running) serve(running);

/** The API for tests, in words: a port taken is said, and the catcher catches all the same. */
function apiState(running: RunningService): { url: string } | { error: string } | null {
  const api = running.publicApi;
  if (api === null || 'url' in api) return api;
  const port = config.api?.port;
  if (api.error.code === 'EADDRINUSE') return { error: `Port ${port} is in use by another program (Mailpit?): the API for tests is off until you choose another port.` };
  if (api.error.code === 'EACCES') return { error: `Port ${port} needs more rights than this user has: choose one above 1023.` };
  return { error: `The API for tests could not start: ${api.error.message}` };
}

function serve(running: RunningService): void {
// A pinned chaos is on from the first connection.
if (config.chaos) running.service.chaos.set(config.chaos);
if (config.relay) running.service.relay.set(config.relay);
running.service.onArrival((teamId, emails) => post({ type: 'arrived', teamId, ids: emails.map((email) => email.id) }));
post({
  type: 'ready',
  baseUrl: running.baseUrl,
  teamId: team.id,
  token: team.token,
  threadId,
  smtp: running.smtpPort === null ? null : { host: running.smtpHost!, port: running.smtpPort, tlsPort: running.smtpTlsPort },
  api: apiState(running),
});
running.service.chaos.onChange((settings) => post({ type: 'chaos', settings }));
parentPort!.on('message', (message: unknown) => {
  if (typeof message === 'object' && message !== null && 'chaos' in message) {
    running.service.chaos.set((message as { chaos: ChaosSettings }).chaos);
    return;
  }
  if (typeof message === 'object' && message !== null && 'spamd' in message) {
    running.service.setSpamd((message as { spamd: string | null }).spamd ?? undefined);
    return;
  }
  if (typeof message === 'object' && message !== null && 'relay' in message) {
    running.service.relay.set((message as { relay: RelayConfig | null }).relay);
    return;
  }
  if (typeof message === 'object' && message !== null && 'release' in message) {
    const { ref, emailId, to } = (message as { release: { ref: number; emailId: string; to: string[] } }).release;
    const store = running.service.team(team.id);
    const email = store.getEmail(emailId);
    void (email ? releaseStored(store, email, to, running.service.relay.config) : Promise.resolve(null)).then((answer) => post({ type: 'released', ref, answer }));
    return;
  }
});
}
