/**
 * The real MailCare (github.com/mailcare/mailcare), served from its own
 * source on Debian's PHP by the scripts in ../shared/mailcare/ (see their
 * README): a fresh instance per test file, its own SQLite file and .env,
 * mail received through MailCare's own `php artisan mailcare:email-receive`.
 *
 * CI sets it up (.ci/run) and sets INBOX_DESK_REAL_MAILCARE=required, so a
 * suite that cannot start it fails there; elsewhere (a desktop without PHP)
 * such a suite is skipped, and says why.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const MAILCARE_SCRIPTS = process.env.MAILCARE_SCRIPTS ?? resolve('../shared/mailcare');
export const MAILCARE_SETUP = process.env.MAILCARE_SETUP_DIR ?? '/tmp/mailcare-real';
/** The login MailCare's own AuthTest uses, which setup.sh creates. */
export const MAILCARE_LOGIN = { user: 'demo@mc5.email', password: 'p@55w0rd' };

/** Why the real MailCare cannot run here, or null when it can. */
export function realMailCareMissing(): string | null {
  if (!existsSync(join(MAILCARE_SCRIPTS, 'instance.sh'))) return `no MailCare scripts at ${MAILCARE_SCRIPTS}`;
  if (!existsSync(join(MAILCARE_SETUP, 'template.sqlite'))) return `MailCare is not set up in ${MAILCARE_SETUP} (run ${MAILCARE_SCRIPTS}/setup.sh)`;
  return null;
}

/** Whether a suite must run (CI) rather than be skipped when MailCare is missing. */
export const REAL_MAILCARE_REQUIRED = process.env.INBOX_DESK_REAL_MAILCARE === 'required';

export interface RealMailCare {
  /** http://127.0.0.1:PORT: what a user pastes. */
  baseUrl: string;
  dir: string;
  /** Receives a message the way MailCare does: its artisan command, the message on stdin. */
  receive(raw: Buffer | string): Promise<void>;
  /** Changes the instance's .env (read on every request), e.g. MAILCARE_AUTH=true. */
  configure(env: Record<string, string>): Promise<void>;
  /** Runs SQL on the instance's database (to date mail, as the scripts' README suggests). */
  sql(statement: string): Promise<string>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

/** A fresh instance on a free port. `env` goes into its .env (CACHE_DRIVER=array: no rate window shared with another file). */
export async function startRealMailCare(env: Record<string, string> = {}): Promise<RealMailCare> {
  const missing = realMailCareMissing();
  if (missing) throw new Error(`The real MailCare cannot run: ${missing}`);
  const dir = join(tmpdir(), `inbox-desk-mailcare-${process.pid}-${Math.random().toString(36).slice(2, 8)}`);
  const pairs = Object.entries({ CACHE_DRIVER: 'array', ...env }).map(([k, v]) => `${k}=${v}`);
  await run('bash', [join(MAILCARE_SCRIPTS, 'instance.sh'), MAILCARE_SETUP, dir, ...pairs]);
  const port = await freePort();
  await run('bash', [join(MAILCARE_SCRIPTS, 'start.sh'), String(port), dir]);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    dir,
    receive: (raw) =>
      new Promise<void>((done, fail) => {
        const child = spawn('php', ['artisan', 'mailcare:email-receive'], { cwd: dir, stdio: ['pipe', 'ignore', 'pipe'] });
        let errors = '';
        child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
        child.on('error', fail);
        child.on('close', (code) => (code === 0 ? done() : fail(new Error(`mailcare:email-receive exited ${code}: ${errors}`))));
        child.stdin.end(raw);
      }),
    configure: async (values) => {
      await run('bash', [join(MAILCARE_SCRIPTS, 'start.sh'), String(port), dir, ...Object.entries(values).map(([k, v]) => `${k}=${v}`)]);
    },
    sql: async (statement) => (await run('php', ['-r', `$db = new PDO('sqlite:' . $argv[1]); $r = $db->query($argv[2]); echo json_encode($r ? $r->fetchAll(PDO::FETCH_ASSOC) : $db->errorInfo());`, join(dir, 'database', 'database.sqlite'), statement])).stdout,
    stop: async () => {
      await run('bash', [join(MAILCARE_SCRIPTS, 'stop.sh'), String(port), dir]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
