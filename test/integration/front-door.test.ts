/**
 * The README's first two commands on a fresh copy of the repository:
 * `npm install`, then `npm start`. Electron's binary comes from a mirror of
 * the test's own on loopback (ELECTRON_MIRROR, checksums read from its
 * SHASUMS256.txt), holding a stand-in Electron that writes down how it was
 * launched; so a start script that never fetches Electron, or never launches
 * it with the built app, fails here. No network but loopback and the npm
 * registry (for `npm install`, answered from npm's cache when it can).
 */
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedZip } from '../support/zip.ts';

const run = promisify(execFile);
const ELECTRON_VERSION = (JSON.parse(readFileSync('node_modules/electron/package.json', 'utf8')) as { version: string }).version;
const ZIP_NAME = `electron-v${ELECTRON_VERSION}-linux-${process.arch}.zip`;
const linux = process.platform === 'linux';

/** What the stand-in Electron writes: the folder it was started in, the dev server's address (dev only), then each argument on a line. */
const STAND_IN = '#!/bin/sh\nprintf "%s\\n" "$PWD" "$ELECTRON_RENDERER_URL" "$@" > "$INBOX_DESK_STAND_IN_LOG"\n';

function launch(log: string): { cwd: string; rendererUrl: string; args: string[] } {
  const [cwd = '', rendererUrl = '', ...args] = readFileSync(log, 'utf8').replace(/\n$/, '').split('\n');
  return { cwd, rendererUrl, args };
}

let work: string;
let clone: string;
let mirror: Server;
let mirrorUrl: string;
const requests: string[] = [];
/** Serve a SHASUMS256.txt that does not match the zip, as a broken or hostile mirror would. */
let wrongSums = false;

/** The files a clone of this tree holds: tracked ones and new ones git would not ignore. */
async function copyTree(to: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { maxBuffer: 16 << 20 });
  for (const file of stdout.split('\0').filter(Boolean)) {
    if (!existsSync(file)) continue; // deleted in the working tree
    mkdirSync(join(to, dirname(file)), { recursive: true });
    cpSync(file, join(to, file));
  }
}

/** The environment a newcomer's shell has: none of our CI's Electron settings. */
function newcomerEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(electron_|npm_)/i.test(key) || key === 'NODE_OPTIONS' || key.startsWith('VITEST')) continue;
    env[key] = value;
  }
  return { ...env, electron_config_cache: join(work, 'electron-cache'), ELECTRON_GET_NO_PROGRESS: '1', ...extra };
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function npm(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 240_000): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: clone, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`npm ${args.join(' ')} took over ${timeoutMs} ms\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe.skipIf(!linux)('a fresh clone: npm install, then npm start', () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'inbox-desk-front-door-'));
    clone = join(work, 'inbox-desk');
    await copyTree(clone);
    const zip = storedZip([
      { name: 'electron', data: STAND_IN, mode: 0o755 },
      { name: 'version', data: `v${ELECTRON_VERSION}` },
      { name: 'LICENSE', data: 'stand-in' },
    ]);
    const sums = `${createHash('sha256').update(zip).digest('hex')} *${ZIP_NAME}\n`;
    mirror = createServer((request, response) => {
      requests.push(request.url ?? '');
      if (request.url === `/v${ELECTRON_VERSION}/${ZIP_NAME}`) response.end(zip);
      else if (request.url === `/v${ELECTRON_VERSION}/SHASUMS256.txt`) response.end(wrongSums ? sums.replace(/^[0-9a-f]/, (c) => (c === '0' ? '1' : '0')) : sums);
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => mirror.listen(0, '127.0.0.1', resolve));
    mirrorUrl = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}/`;
    const install = await npm(['install', '--no-audit', '--no-fund', '--prefer-offline'], newcomerEnv({}));
    expect(install.code, install.stderr).toBe(0);
  }, 300_000);

  afterAll(async () => {
    await new Promise((resolve) => mirror?.close(resolve));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('npm install fetched no Electron binary (Electron 45 fetches it lazily)', () => {
    expect(existsSync(join(clone, 'node_modules/electron/path.txt'))).toBe(false);
  });

  it('with no mirror reachable, npm start and npm run dist stop with one plain paragraph and a non-zero exit', async () => {
    const closed = newcomerEnv({ ELECTRON_MIRROR: 'http://127.0.0.1:9/', electron_use_remote_checksums: '1' });
    for (const script of [['start'], ['run', 'dist']]) {
      const outcome = await npm(script, closed);
      expect(outcome.code).not.toBe(0);
      const paragraph = outcome.stderr.split('\n').filter((line) => line.startsWith('Inbox Desk cannot start'));
      expect(paragraph).toHaveLength(1);
      expect(paragraph[0]).toContain(`Electron ${ELECTRON_VERSION}`);
      expect(paragraph[0]).toContain('http://127.0.0.1:9/');
      // The ways out: a mirror, a proxy, a zip fetched elsewhere.
      for (const way of ['ELECTRON_MIRROR=', 'ELECTRON_GET_USE_PROXY=1', 'ELECTRON_OVERRIDE_DIST_PATH=']) expect(paragraph[0]).toContain(way);
      expect(outcome.stderr).not.toMatch(/^\s+at /m); // no stack trace
    }
    expect(existsSync(join(clone, 'node_modules/electron/path.txt'))).toBe(false);
    expect(existsSync(join(clone, 'out/main/index.js')), 'nothing is built before Electron is there').toBe(false);
  }, 120_000);

  it('a zip that does not match its checksum is refused, in the same plain paragraph', async () => {
    wrongSums = true;
    try {
      const outcome = await npm(['start'], newcomerEnv({ ELECTRON_MIRROR: mirrorUrl, electron_use_remote_checksums: '1', electron_config_cache: join(work, 'cache-of-a-bad-mirror') }));
      expect(outcome.code).not.toBe(0);
      expect(outcome.stderr).toMatch(/^Inbox Desk cannot start: .*checksum.*did not match/im);
      expect(outcome.stderr).not.toMatch(/^\s+at /m);
      expect(existsSync(join(clone, 'node_modules/electron/path.txt'))).toBe(false);
    } finally {
      wrongSums = false;
      requests.length = 0;
    }
  }, 120_000);

  it('npm start fetches Electron from the mirror once, checks it, and launches it with the built app and its arguments', async () => {
    const log = join(work, 'first-start.log');
    const began = Date.now();
    const mirrored = newcomerEnv({ ELECTRON_MIRROR: mirrorUrl, electron_use_remote_checksums: '1', INBOX_DESK_STAND_IN_LOG: log });
    const outcome = await npm(['start', '--', '--inbox-desk-test-argument'], mirrored);
    expect(outcome.code, `${outcome.stdout}\n${outcome.stderr}`).toBe(0);
    expect(requests.sort()).toEqual([`/v${ELECTRON_VERSION}/SHASUMS256.txt`, `/v${ELECTRON_VERSION}/${ZIP_NAME}`]);
    // Launched in the clone with `.` (package.json's main) and the argument given after `--`.
    expect(launch(log)).toEqual({ cwd: clone, rendererUrl: '', args: ['.', '--inbox-desk-test-argument'] });
    const main = (JSON.parse(readFileSync(join(clone, 'package.json'), 'utf8')) as { main: string }).main;
    expect(main).toBe('./out/main/index.js');
    expect(statSync(join(clone, main)).mtimeMs, 'the main entry was built by this start').toBeGreaterThanOrEqual(began - 1000);
    for (const built of ['out/preload/index.cjs', 'out/renderer/index.html']) expect(existsSync(join(clone, built)), built).toBe(true);
  }, 240_000);

  it('a second npm start downloads nothing and launches the same Electron', async () => {
    requests.length = 0;
    const log = join(work, 'second-start.log');
    const outcome = await npm(['start'], newcomerEnv({ ELECTRON_MIRROR: mirrorUrl, electron_use_remote_checksums: '1', INBOX_DESK_STAND_IN_LOG: log }));
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(requests).toEqual([]);
    expect(outcome.stdout).not.toContain('Fetching Electron');
    expect(launch(log)).toEqual({ cwd: clone, rendererUrl: '', args: ['.'] });
  }, 240_000);

  it('npm run dev launches the same Electron against its dev server, fetching nothing', async () => {
    requests.length = 0;
    const log = join(work, 'dev.log');
    const outcome = await npm(['run', 'dev'], newcomerEnv({ ELECTRON_MIRROR: mirrorUrl, electron_use_remote_checksums: '1', INBOX_DESK_STAND_IN_LOG: log }));
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(requests).toEqual([]);
    const launched = launch(log);
    expect(launched.cwd).toBe(clone);
    expect(launched.args).toEqual(['.']);
    expect(launched.rendererUrl).toMatch(/^http:\/\/(localhost|127\.0\.0\.1):\d+\/?$/);
  }, 240_000);
});
