/**
 * SpamAssassin's own spamd (Debian's `spamd` package), started on a free
 * loopback port for a test file. CI installs it (.ci/run) and sets
 * INBOX_DESK_SPAMD=required, so a suite that cannot start it fails there;
 * elsewhere it is skipped, and says why.
 */
import { freePort } from './free-port.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SPAMD_BINARY = process.env.SPAMD_BINARY ?? '/usr/sbin/spamd';
export const SPAMD_REQUIRED = process.env.INBOX_DESK_SPAMD === 'required';

export function spamdMissing(): string | null {
  return existsSync(SPAMD_BINARY) ? null : `no spamd at ${SPAMD_BINARY} (Debian: apt install spamd)`;
}

/** PING SPAMC/1.5 answered with PONG: spamd has loaded its rules. */
function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    let answer = '';
    socket.on('connect', () => socket.end('PING SPAMC/1.5\r\n\r\n'));
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(/PONG/.test(answer)));
    socket.on('error', () => resolve(false));
  });
}

export interface RunningSpamd {
  address: string;
  stop(): Promise<void>;
}

export async function startSpamd(): Promise<RunningSpamd> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'inbox-desk-spamd-'));
  // One child, no network tests (nothing leaves this machine), as the user running the tests
  // (as root it would switch to nobody); its own pid file and state.
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(
    SPAMD_BINARY,
    [
      '--listen', `127.0.0.1:${port}`,
      '--allowed-ips', '127.0.0.1',
      '--max-children', '1',
      '--local',
      '--nouser-config',
      '--pidfile', join(dir, 'spamd.pid'),
      ...(asRoot ? ['--username', 'nobody', '--groupname', 'nogroup'] : []),
      '--syslog', 'stderr',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  const began = Date.now();
  while (!(await pong(port))) {
    if (child.exitCode !== null) throw new Error(`spamd ended at start (${child.exitCode}): ${log}`);
    if (Date.now() - began > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`spamd did not answer within 60 s: ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    address: `127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
