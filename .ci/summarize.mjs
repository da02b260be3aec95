// Sums Vitest's and Playwright's closing counts into one "N passed, N failed" line.
import { readFileSync } from 'node:fs';

// eslint-disable-next-line no-control-regex -- strips ANSI colour codes
const text = readFileSync(process.argv[2], 'utf8').replace(/\u001b\[[0-9;]*m/g, '');
let passed = 0;
let failed = 0;
let skipped = 0;
// Vitest: "      Tests  12 passed | 1 failed (13)"
for (const match of text.matchAll(/^\s*Tests\s+(.+)$/gm)) {
  passed += Number(/(\d+) passed/.exec(match[1])?.[1] ?? 0);
  failed += Number(/(\d+) failed/.exec(match[1])?.[1] ?? 0);
  skipped += Number(/(\d+) skipped/.exec(match[1])?.[1] ?? 0);
}
// Playwright list reporter: "  5 passed (3.1s)", "  1 failed", "  1 skipped"
for (const match of text.matchAll(/^\s+(\d+) (passed|failed|flaky|skipped)(?: \(.*\))?$/gm)) {
  const n = Number(match[1]);
  if (match[2] === 'passed') passed += n;
  else if (match[2] === 'skipped') skipped += n;
  else failed += n;
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
