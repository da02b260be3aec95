import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverNodeArgs } from '../support/server-command.ts';

const run = promisify(execFile);

/** The README's reference-service section: the command and the curl block, as written. */
async function readmeBlocks(): Promise<{ command: string; curls: string }> {
  const readme = await readFile('README.md', 'utf8');
  const section = readme.slice(readme.indexOf('## The reference service'));
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
