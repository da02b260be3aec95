/**
 * Builds the package `npm run dist` would build (electron-builder's `dir`
 * target, from our real electron-builder.yml) and looks inside it. Electron's
 * binary cannot be downloaded on our machines, so a stand-in directory with a
 * placeholder binary takes its place (electronDist), and fuses, which patch
 * that binary, are left out of this run. Needs `electron-vite build` first
 * (npm run test:package does it).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { extractFile, listPackage } from '@electron/asar';
import { build, Platform } from 'electron-builder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT } from '../../src/main/project.ts';

/** Measured 17.0 MB when this test was written (fastify, mailparser, smtp-server, zod, re2js and the build). */
const ASAR_BUDGET_BYTES = 24_000_000;
const BUILD_ONLY = [
  'electron', 'electron-vite', 'electron-builder', 'vite', 'vitest', 'playwright', '@playwright/test',
  'typescript', 'typescript7', 'eslint', 'react', 'react-dom', 'dompurify', 'zustand', '@electron/asar',
  // Bundled, data and all, into out/main/compat-worker.js: its 29 MB of stray dependencies stay out.
  'caniemail', 'prettier', '@trivago/prettier-plugin-sort-imports',
];

let work: string;
let unpacked: string;
let asar: string;
let files: Set<string>;

beforeAll(async () => {
  expect(existsSync('out/main/index.js'), 'run `electron-vite build` first').toBe(true);
  work = await mkdtemp(join(tmpdir(), 'inbox-desk-package-'));
  const standIn = join(work, 'electron-dist');
  await mkdir(standIn, { recursive: true });
  await writeFile(join(standIn, 'electron'), '#!/bin/sh\necho "stand-in for the Electron binary"\n');
  await chmod(join(standIn, 'electron'), 0o755);
  await writeFile(join(standIn, 'LICENSE'), 'stand-in');
  await writeFile(join(standIn, 'LICENSES.chromium.html'), 'stand-in');
  await build({
    projectDir: resolve('.'),
    targets: Platform.LINUX.createTarget('dir'),
    config: {
      extends: resolve('electron-builder.yml'),
      electronDist: standIn,
      electronFuses: null,
      npmRebuild: false,
      directories: { output: join(work, 'dist'), buildResources: 'build' },
    },
    publish: 'never',
  });
  unpacked = join(work, 'dist', 'linux-unpacked');
  asar = join(unpacked, 'resources', 'app.asar');
  files = new Set(listPackage(asar, { isPack: false }).map((path) => path.replace(/\\/g, '/')));
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** Bare package names a built file imports (ESM, dynamic import, require). */
function importsOf(code: string): Set<string> {
  const names = new Set<string>();
  // A specifier has no white space: `"from"), to: first(headers, "to"` is a string, not an import.
  // Bundled packages keep their doc comments ("* const braces = require('braces')"): those lines import nothing.
  code = code
    .split('\n')
    .filter((line) => !/^\s*(?:\*|\/\/|\/\*)/.test(line))
    .join('\n');
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)["']([^"'./\s][^"'\s]*)["']/g)) {
    const specifier = match[1]!;
    if (specifier.startsWith('node:') || builtinModules.includes(specifier) || specifier === 'electron') continue;
    names.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
  }
  return names;
}

function packagedManifest(name: string, from = '/node_modules'): { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> } | null {
  const path = `${from}/${name}/package.json`;
  return files.has(path) ? (JSON.parse(extractFile(asar, path.slice(1)).toString('utf8')) as never) : null;
}

describe('the package npm run dist builds', () => {
  it('holds the three builds and package.json, pointing at main', () => {
    for (const path of ['/out/main/index.js', '/out/main/local-service-worker.js', '/out/main/compat-worker.js', '/out/preload/index.cjs', '/out/renderer/index.html', '/package.json']) {
      expect(files.has(path), path).toBe(true);
    }
    const manifest = JSON.parse(extractFile(asar, 'package.json').toString('utf8')) as { main: string; homepage: string; bugs: { url: string } };
    expect(files.has(`/${manifest.main.replace(/^\.\//, '')}`)).toBe(true);
    expect(manifest.homepage).toBe(PROJECT.homepage);
    expect(manifest.bugs.url).toBe(PROJECT.issues);
    // Sources and configs stay out.
    expect([...files].filter((path) => /^\/(src|test|\.ci|out\/server)\//.test(path) || /\.map$/.test(path))).toEqual([]);
  });

  it('resolves every package the main process imports, and their dependencies, inside the archive', () => {
    const mainFiles = [...files].filter((path) => /^\/out\/main\/.*\.js$/.test(path));
    expect(mainFiles.length).toBeGreaterThanOrEqual(2);
    const wanted = new Set<string>();
    for (const path of mainFiles) for (const name of importsOf(extractFile(asar, path.slice(1)).toString('utf8'))) wanted.add(name);
    expect([...wanted].sort()).toEqual(expect.arrayContaining(['electron-updater', 'fastify', 'mailparser', 're2js', 'smtp-server', 'zod']));
    const missing: string[] = [];
    const seen = new Set<string>();
    const visit = (name: string, from: string) => {
      // Node's lookup: nested node_modules first, then the top level.
      const nested = from === '/node_modules' ? null : packagedManifest(name, `${from}/node_modules`);
      const base = nested ? `${from}/node_modules` : '/node_modules';
      const manifest = nested ?? packagedManifest(name);
      if (!manifest) {
        missing.push(`${name} (needed by ${from})`);
        return;
      }
      const key = `${base}/${name}`;
      if (seen.has(key)) return;
      seen.add(key);
      for (const dependency of Object.keys(manifest.dependencies ?? {})) visit(dependency, key);
    };
    for (const name of wanted) visit(name, '/node_modules');
    expect(missing).toEqual([]);
  });

  it('runs the compatibility check from the packed worker alone (caniemail’s data bundled in)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'inbox-desk-compat-'));
    try {
      const worker = join(dir, 'compat-worker.js');
      await writeFile(worker, extractFile(asar, 'out/main/compat-worker.js'));
      // With the chunks main's entries share (the bundler's runtime for CommonJS packages), as packed.
      const chunks = [...files].filter((file) => file.startsWith('/out/main/chunks/'));
      await mkdir(join(dir, 'chunks'));
      for (const chunk of chunks) await writeFile(join(dir, 'chunks', chunk.slice('/out/main/chunks/'.length)), extractFile(asar, chunk.slice(1)));
      const { runCompat } = await import('../../src/main/qa/run-compat.ts');
      const report = await runCompat(worker, '<div style="display: flex; word-wrap: break-word">x</div>');
      expect(report.findings.find((f) => f.feature === 'display:flex')?.unsupported).toContain('outlook.windows');
      expect(report.findings.find((f) => f.feature === 'word-wrap')?.noData).toContain('gmail.ios');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('packs no build-only package', () => {
    const packed = BUILD_ONLY.filter((name) => files.has(`/node_modules/${name}/package.json`));
    expect(packed).toEqual([]);
  });

  it('ships the demo corpus and the icon beside the archive', () => {
    const resources = join(unpacked, 'resources', 'resources');
    const mail = readdirSync(join(resources, 'demo', 'mail')).filter((name) => name.endsWith('.eml'));
    expect(mail.length).toBe(readdirSync('resources/demo/mail').filter((name) => name.endsWith('.eml')).length);
    expect(existsSync(join(resources, 'demo', 'mail', 'automations.json'))).toBe(true);
    const icon = readFileSync(join(resources, 'icon.png'));
    expect(icon.subarray(1, 4).toString()).toBe('PNG');
    expect(icon.readUInt32BE(16)).toBe(512);
  });

  it(`stays under its size budget (${ASAR_BUDGET_BYTES / 1e6} MB)`, () => {
    const size = statSync(asar).size;
    console.log(`app.asar: ${(size / 1e6).toFixed(1)} MB, ${files.size} entries`);
    expect(size).toBeLessThan(ASAR_BUDGET_BYTES);
  });
});
