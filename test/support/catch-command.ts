import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { serverNodeArgs } from './server-command.ts';

export interface RunningCatch {
  /** `http://127.0.0.1:PORT`: the API (Mailpit's, the team's, /mcp). */
  api: string;
  smtpPort: number;
  token: string;
  dataDir: string;
  output: string;
  stop(): Promise<void>;
}

/**
 * `npm run catch` as a user starts it, from package.json's own script, on free
 * ports (other suites hold 8025) and a data folder of the test's.
 */
export async function startCatch(more: { args?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<RunningCatch> {
  await promisify(execFile)('npm', ['run', 'build:server', '--silent']);
  const dataDir = await mkdtemp(join(tmpdir(), 'catch-'));
  const script = (JSON.parse(await readFile('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts.catch!;
  const flags = script.slice(script.indexOf('-- ') + 3).split(/\s+/);
  const child: ChildProcess = spawn(process.execPath, [...serverNodeArgs(), ...flags, '--port', '0', '--smtp-port', '0', '--data', dataDir, ...(more.args ?? [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...more.env },
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run catch did not start: ${output}`)), 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/SMTP: +\S+:\d+/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`npm run catch exited ${code}: ${output}`)));
  });
  return {
    api: /Base URL: (http:\/\/[\d.:]+)\/api\/teams\/this-computer/.exec(output)![1]!,
    smtpPort: Number(/SMTP: +\S+:(\d+)/.exec(output)![1]),
    token: /Token: +(\S+)/.exec(output)![1]!,
    dataDir,
    output,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
