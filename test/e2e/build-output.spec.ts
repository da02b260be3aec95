import { existsSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';

// `npm run test:e2e` builds first; these check what `npm run build` wrote.
test.describe('the build', () => {
  test('writes out/main, out/preload and out/renderer', () => {
    for (const file of ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html']) {
      expect(existsSync(file), file).toBe(true);
    }
  });

  test('puts the demo service in a worker of its own, out of main’s bundle', () => {
    expect(existsSync('out/main/local-service-worker.js')).toBe(true);
    const main = readFileSync('out/main/index.js', 'utf8');
    // The service itself stays out of main (mailparser is main's own: it reads cid: images).
    for (const server of ['fastify', 'smtp-server']) expect(main, server).not.toContain(`from "${server}"`);
    expect(readFileSync('out/main/local-service-worker.js', 'utf8')).toContain('from "fastify"');
  });

  test('gives a preload a sandbox can load: one CommonJS file that requires only electron', () => {
    const preload = readFileSync('out/preload/index.cjs', 'utf8');
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((m) => m[1]);
    expect([...new Set(required)]).toEqual(['electron']);
    expect(preload).toContain('exposeInMainWorld');
    expect(preload).not.toMatch(/\bimport\s/);
  });

  test('serves the renderer with its CSP and no inline script', () => {
    const html = readFileSync('out/renderer/index.html', 'utf8');
    expect(html).toContain("script-src 'self'");
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });
});
