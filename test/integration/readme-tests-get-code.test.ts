/**
 * The README's "Your tests get the code", run as written: the curl line, the
 * Playwright test (by Playwright's own runner, in Chromium), and both MCP
 * configs (by the MCP SDK's own clients), each against `npm run catch` and a
 * sample app that mails a sign-up code with nodemailer. Only the port and the
 * token change: the README's 8025 is another suite's here.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../support/browser.ts';
import { startCatch, type RunningCatch } from '../support/catch-command.ts';
import { startSampleApp, type SampleApp } from '../support/sample-app.ts';

const run = promisify(execFile);

async function section(): Promise<{ blocks: { lang: string; code: string }[] }> {
  const readme = await readFile('README.md', 'utf8');
  const text = readme.slice(readme.indexOf('## Your tests get the code'), readme.indexOf('## Keys'));
  return { blocks: [...text.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!, code: m[2]! })) };
}

const signUp = (app: SampleApp, email: string) => fetch(`${app.url}/sign-up`, { method: 'POST', body: new URLSearchParams({ email }) });

describe('the README: your tests get the code', () => {
  let catcher: RunningCatch;
  let app: SampleApp;
  let blocks: { lang: string; code: string }[];
  const here = (text: string) => text.replaceAll('http://127.0.0.1:8025', catcher.api);

  beforeAll(async () => {
    catcher = await startCatch();
    app = await startSampleApp(catcher.smtpPort);
    ({ blocks } = await section());
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await catcher?.stop();
  });

  it('starts with npm run catch, which prints the token the examples use', async () => {
    expect(blocks[0]!.code.trim().split(/\s+#/)[0]).toBe('npm run catch');
    expect(catcher.output).toMatch(/SMTP: +127\.0\.0\.1:\d+/);
    expect(catcher.token).toMatch(/^[\w-]{20,}$/);
  });

  it('the curl line waits for the sign-up email and prints its code', async () => {
    const curl = blocks.find((b) => b.lang === 'sh' && b.code.includes('curl'))!.code;
    const command = here(curl.split('\n').filter((line) => line.startsWith('curl')).join('\n'));
    const waiting = run('bash', ['-euo', 'pipefail', '-c', command], { env: { ...process.env, INBOX_DESK_TOKEN: catcher.token } });
    await new Promise((r) => setTimeout(r, 300));
    expect((await signUp(app, 'new-user@myapp.test')).status).toBe(200);
    const answer = JSON.parse((await waiting).stdout) as { code: { value: string; label: string } };
    expect(answer.code.value).toBe(app.codes.get('new-user@myapp.test'));
    expect(answer.code.label).toBe('verification code');
  });

  it('the Playwright test passes, run by Playwright against the sample app', async () => {
    const spec = blocks.find((b) => b.lang === 'ts')!.code;
    // Inside the repo, so that the spec finds @playwright/test as a user's project would.
    const dir = resolve('out/readme-run');
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'sign-up.spec.ts'), here(spec));
    await writeFile(
      join(dir, 'playwright.config.ts'),
      `export default { testDir: '.', reporter: 'line', use: { launchOptions: { ${chromiumPath ? `executablePath: ${JSON.stringify(chromiumPath)}, ` : ''}args: ['--no-sandbox', '--disable-gpu'] } } };\n`,
    );
    const result = await new Promise<{ code: number | null; output: string }>((done) => {
      const child = spawn(process.execPath, [resolve('node_modules/@playwright/test/cli.js'), 'test', '-c', join(dir, 'playwright.config.ts')], {
        env: { ...process.env, APP_URL: app.url, INBOX_DESK_TOKEN: catcher.token },
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      child.once('exit', (code) => done({ code, output }));
    });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/1 passed/);
  }, 90_000);

  it('the MCP configs connect, list the tools and read a sign-up code', async () => {
    const [http, stdio] = blocks.filter((b) => b.lang === 'json').map((b) => JSON.parse(here(b.code).replaceAll('<token>', catcher.token)) as { mcpServers: Record<string, Record<string, unknown>> });
    const httpServer = http!.mcpServers['inbox-desk'] as { url: string; headers: Record<string, string> };
    const overHttp = new Client({ name: 'readme-http', version: '1.0.0' });
    await overHttp.connect(new StreamableHTTPClientTransport(new URL(httpServer.url), { requestInit: { headers: httpServer.headers } }));
    const waiting = overHttp.callTool({ name: 'wait_for_email', arguments: { to: 'agent@myapp.test', timeout_seconds: 20 } });
    await new Promise((r) => setTimeout(r, 300));
    await signUp(app, 'agent@myapp.test');
    const waited = (await waiting) as unknown as { structuredContent: { code: string } };
    expect(waited.structuredContent.code).toBe(app.codes.get('agent@myapp.test'));
    await overHttp.close();

    const stdioServer = stdio!.mcpServers['inbox-desk'] as { command: string; args: string[]; env: Record<string, string> };
    const args = stdioServer.args.map((arg) => (arg === '/path/to/inbox-desk' ? process.cwd() : arg));
    const overStdio = new Client({ name: 'readme-stdio', version: '1.0.0' });
    // The README's 8025 is this test's catcher's port: the one change, through the variable npm run mcp reads.
    await overStdio.connect(new StdioClientTransport({ command: stdioServer.command, args, env: { ...(process.env as Record<string, string>), ...stdioServer.env, INBOX_DESK_URL: catcher.api } }));
    expect((await overStdio.listTools()).tools.map((t) => t.name)).toContain('get_code');
    const code = (await overStdio.callTool({ name: 'get_code', arguments: { to: 'agent@myapp.test' } })) as { content: { text: string }[] };
    expect(code.content[0]!.text).toBe(app.codes.get('agent@myapp.test'));
    await overStdio.close();
  }, 60_000);
});
