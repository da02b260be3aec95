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
