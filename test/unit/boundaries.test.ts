import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The folder rules in eslint.config.js, exercised on snippets placed in each room. */
const eslint = new ESLint();

async function restricted(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('import boundaries', () => {
  it('keep shared free of electron, node and react', async () => {
    expect(await restricted('src/shared/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
    expect(await restricted('src/shared/x.ts', "import { readFile } from 'node:fs';\nexport const a = readFile;\n")).toHaveLength(1);
    expect(await restricted('src/shared/x.ts', "import { useState } from 'react';\nexport const a = useState;\n")).toHaveLength(1);
    expect(await restricted('src/shared/x.ts', "import { z } from 'zod';\nexport const a = z;\n")).toHaveLength(0);
  });

  it('keep the renderer away from electron, node and main', async () => {
    expect(await restricted('src/renderer/src/x.ts', "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;\n")).toHaveLength(1);
    expect(await restricted('src/renderer/src/x.ts', "import { readFile } from 'node:fs';\nexport const a = readFile;\n")).toHaveLength(1);
    expect(await restricted('src/renderer/src/x.ts', "import { dispatch } from '../../main/handlers.ts';\nexport const a = dispatch;\n")).toHaveLength(1);
    expect(await restricted('src/renderer/src/x.ts', "import { useState } from 'react';\nexport const a = useState;\n")).toHaveLength(0);
  });

  it('keep electron out of the plain-Node parts of main and the service', async () => {
    for (const file of ['src/main/handlers.ts', 'src/main/api/x.ts', 'src/main/account/x.ts', 'src/server/x.ts']) {
      expect(await restricted(file, "import { app } from 'electron';\nexport const a = app;\n"), file).toHaveLength(1);
    }
    expect(await restricted('src/main/window.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(0);
  });
});

describe('flavors are whole adapters (issue 22)', () => {
  it('no file outside the adapters and the traits table names a flavor', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const { join } = await import('node:path');
    const { FLAVORS } = await import('../../src/shared/flavors/index.ts');
    const allowed = new Set(['src/shared/flavors/index.ts', 'src/shared/flavors/service-v1.ts', 'src/shared/flavors/mailcare.ts', 'src/main/api/flavors/index.ts', 'src/main/api/flavors/mailcare.ts', 'src/main/api/flavors/service-v1.ts']);
    const files: string[] = [];
    const walk = async (dir: string) => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (/\.tsx?$/.test(entry.name)) files.push(path);
      }
    };
    await walk('src');
    const offenders: string[] = [];
    for (const file of files.filter((f) => !allowed.has(f))) {
      const text = await readFile(file, 'utf8');
      for (const name of FLAVORS) if (text.includes(`'${name}'`) || text.includes(`"${name}"`)) offenders.push(`${file}: ${name}`);
    }
    expect(offenders).toEqual([]);
  });
});

describe('the reference service’s routes', () => {
  it('ask the wire and never a flavor: no route reads the record or names a server', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const offenders: string[] = [];
    for (const name of await readdir('src/server/routes')) {
      // Code only: a comment may say which server does what.
      const text = (await readFile(`src/server/routes/${name}`, 'utf8'))
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line))
        .map((line) => line.replace(/\/\/.*$/, ''))
        .join('\n');
      for (const [what, pattern] of [['the record', /\brecord\./], ['a flavor by name', /mailcare|service-v1|laravel/i]] as const) {
        if (pattern.test(text)) offenders.push(`${name}: ${what}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
