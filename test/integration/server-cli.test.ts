import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverNodeArgs } from '../support/server-command.ts';

const run = promisify(execFile);

/** The reference service's page (docs/reference-service.md): the command and the curl block, as written. */
async function readmeBlocks(): Promise<{ command: string; curls: string }> {
  const section = await readFile('docs/reference-service.md', 'utf8');
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return { command: blocks[0]!.split('\n')[0]!, curls: blocks[1]! };
}

const curlMissing = await run('curl', ['--version']).then(
  () => false,
  () => true,
);

describe('npm run server, and the README examples', () => {
  let server: ChildProcess;
  let output = '';

  beforeAll(async () => {
    const { command } = await readmeBlocks();
    // `npm run server -- ARGS` builds out/server, then runs it with Node: the same here.
    await run('npm', ['run', 'build:server', '--silent']);
    const args = command.replace(/^npm run server -- /, '').split(/\s+/);
    server = spawn(process.execPath, [...serverNodeArgs(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start: ${output}`)), 15_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Token:')) {
          clearTimeout(timer);
          resolve();
        }
      };
      server.stdout!.on('data', onData);
      server.stderr!.on('data', onData);
      server.once('exit', (code) => reject(new Error(`server exited ${code}: ${output}`)));
    });
  }, 60_000);
  afterAll(() => {
    server?.kill('SIGTERM');
  });

  it('prints its base URL and token and serves the demo corpus', async () => {
    expect(output).toMatch(/Reference service up in \d+ ms with 41 emails/);
    expect(output).toContain('Base URL: http://127.0.0.1:8025/api/teams/demo');
    expect(output).toContain('Token:    demo-token');
    const response = await fetch('http://127.0.0.1:8025/api/teams/demo/emails?limit=1', {
      headers: { Authorization: 'Bearer demo-token' },
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { meta: { total: number } }).meta.total).toBe(41);
  });

  it.skipIf(curlMissing)('runs the README curl examples as written', async () => {
    const { curls } = await readmeBlocks();
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', curls], { env: { ...process.env }, maxBuffer: 10_000_000 });
    expect(stdout).toContain('"inbox":{"id"');
    expect(stdout).toContain('support@acme.test');
    expect(stdout).toContain('Subject: ');
    expect(stdout).toContain('"title":"Invoices to accounting"');
    expect(stdout).toContain('"payload_format":"json_with_bodies"');
  });
});

/** Runs the built service's command line as `npm run server -- ARGS` does, to its exit. */
function cli(args: string[], timeoutMs = 20_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...serverNodeArgs(), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running after ${timeoutMs} ms: ${stdout}${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

describe('the service command line behaves like a command line', () => {
  beforeAll(async () => {
    await run('npm', ['run', 'build:server', '--silent']);
  }, 60_000);

  it('--help prints every option with its default and exits 0', async () => {
    const { code, stdout, stderr } = await cli(['--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toMatch(/^Usage: npm run server -- \[options\]/);
    for (const expected of [
      /--port N .*\(default 8025\)/,
      /--host ADDRESS .*\(default 127\.0\.0\.1\)/,
      /--team ID .*\(default demo\)/,
      /--token TOKEN /,
      /--seed DIR /,
      /--data DIR /,
      /--smtp-port N /,
      /--rate-limit N .*\(default 60\)/,
      /--flavor NAME .*service-v1 or mailcare.*\(default service-v1\)/,
      /--basic EMAIL:PASSWORD /,
      /--no-automations /,
      /--forward /,
      /--allow-private-webhooks /,
    ]) {
      expect(stdout).toMatch(expected);
    }
  });

  it('an unknown or malformed option is one line and the usage, exit 2', async () => {
    const cases: [string[], string][] = [
      [['--bogus'], 'inbox-desk-server: unknown option --bogus'],
      [['--port', 'abc'], 'inbox-desk-server: --port must be a port number from 0 to 65535, not "abc"'],
      [['--port', '70000'], 'inbox-desk-server: --port must be a port number from 0 to 65535, not "70000"'],
      [['--port'], 'inbox-desk-server: --port needs a value'],
      [['--rate-limit', '-5'], 'inbox-desk-server: --rate-limit needs a value'],
      [['--rate-limit=-5'], 'inbox-desk-server: --rate-limit must be a whole number of requests a minute (0: off), not "-5"'],
      [['--flavor', 'gmail'], 'inbox-desk-server: --flavor must be one of service-v1, mailcare, not "gmail"'],
      [['--basic', 'nocolon', '--flavor', 'mailcare'], 'inbox-desk-server: --basic must be EMAIL:PASSWORD'],
      [['stray'], 'inbox-desk-server: unexpected argument "stray" (options start with --)'],
      [['--relay-host', 'smtp.example.test'], 'inbox-desk-server: --relay-host needs --relay-allow: the addresses or @domains released mail may go to'],
      [['--relay-user', 'me'], 'inbox-desk-server: --relay-user goes with --relay-host'],
      [['--relay-host', 'smtp.example.test', '--relay-allow', 'me@x.test,nobody'], 'inbox-desk-server: --relay-*: “nobody” is neither an address nor @domain.'],
      [['--relay-host', 'smtp.example.test', '--relay-allow', 'me@x.test', '--relay-security', 'ssl'], 'inbox-desk-server: --relay-*: Security is STARTTLS, TLS or none.'],
    ];
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await cli(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stdout).toBe('');
      expect(lines(stderr)).toEqual([message, 'Usage: npm run server -- [options]  (--help lists them)']);
    }
  });

  it('errors at start are one plain line each, exit 1: a port in use, an unreadable --seed, an unwritable --data', async () => {
    const busy = createNetServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    const work = await mkdtemp(join(tmpdir(), 'inbox-desk-cli-'));
    try {
      await writeFile(join(work, 'a-file'), 'not a folder');
      const cases: [string[], string][] = [
        [['--port', String(port)], `inbox-desk-server: port ${port} on 127.0.0.1 is in use by another program: pick another with --port (0 picks a free one)`],
        [['--port', '0', '--smtp-port', String(port)], `inbox-desk-server: port ${port} on 127.0.0.1 is in use by another program: pick another with --smtp-port (0 picks a free one)`],
        [['--port', '0', '--seed', join(work, 'missing')], `inbox-desk-server: cannot read --seed ${join(work, 'missing')}: it does not exist`],
        [['--port', '0', '--seed', join(work, 'a-file')], `inbox-desk-server: --seed ${join(work, 'a-file')} is not a folder (it takes a folder of .eml files)`],
        [['--port', '0', '--data', join(work, 'a-file', 'mail')], `inbox-desk-server: cannot write to --data ${join(work, 'a-file', 'mail')}: a file is in the way`],
      ];
      for (const [args, message] of cases) {
        const { code, stderr } = await cli(args);
        expect(code, args.join(' ')).toBe(1);
        expect(lines(stderr)).toEqual([message]);
      }
    } finally {
      busy.close();
      await rm(work, { recursive: true, force: true });
    }
  });

  it('Ctrl+C twice (as npm passes it on) waits for the clean close: exit 0, the WAL folded back into the store', async () => {
    const work = await mkdtemp(join(tmpdir(), 'inbox-desk-cli-'));
    try {
      const child = spawn(process.execPath, [...serverNodeArgs(), '--port', '0', '--data', work, '--seed', 'resources/demo/mail'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Token:')) resolve();
        });
        child.once('exit', (code) => reject(new Error(`exited ${code}: ${output}`)));
      });
      expect(existsSync(join(work, 'demo', 'mail.sqlite-wal'))).toBe(true);
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(existsSync(join(work, 'demo', 'mail.sqlite-wal')), 'a clean close leaves no WAL').toBe(false);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
