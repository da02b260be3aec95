import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonFile } from '../../src/main/account/json-file.ts';

const parse = (value: unknown) => (typeof value === 'object' && value !== null && 'n' in value ? (value as { n: number }) : null);

describe('the settings file on disk', () => {
  it('after 50 saves at once holds the last one, owner-only, with no temp file left', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'json-file-'));
    const file = new JsonFile(join(dir, 'settings.json'), parse);
    await Promise.all(Array.from({ length: 50 }, (_, n) => file.write({ n })));
    expect(JSON.parse(await readFile(join(dir, 'settings.json'), 'utf8'))).toEqual({ n: 49 });
    expect((await stat(join(dir, 'settings.json'))).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).sort()).toEqual(['settings.json', 'settings.json.bak']);
  });

  it('killed in the middle of saving, a process leaves a whole file: the old one or the new one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'json-file-kill-'));
    const path = join(dir, 'settings.json');
    // A child saves a 200 KB value over and over until SIGKILL ends it at whatever step it was in; six times.
    for (const delay of [40, 90, 140, 190, 240, 290]) {
      const child = spawn(
        process.execPath,
        [
          '--experimental-strip-types',
          '--input-type=module',
          '-e',
          `import { JsonFile } from ${JSON.stringify(join(process.cwd(), 'src/main/account/json-file.ts'))};
           const file = new JsonFile(${JSON.stringify(path)}, (v) => v);
           for (let n = 0; ; n++) { await file.write({ n, pad: 'x'.repeat(200000) }); if (n === 3) console.log('writing'); }`,
        ],
        { stdio: ['ignore', 'pipe', 'inherit'] },
      );
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const read = await new JsonFile(path, parse).read();
      expect(read.recovered, `killed after ${delay} ms`).toBe(false);
      expect(read.value?.n).toBeGreaterThanOrEqual(3);
    }
  });
});
