/**
 * The HTML pre-scan (html-measure.ts) decides whether a body is rendered at
 * all, so it must never see a shallower document than the browser builds. The
 * judge is Chromium's own parser: random tag soups (stray and mismatched end
 * tags, implied ends, tables without sections, self-closing slashes, long
 * repeats) are parsed by DOMParser, and whenever the browser nests deeper than
 * the limit the scan must have refused the body.
 */
import { readdir, readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { parseMessage } from '../../src/server/ingest.ts';
import { HTML_LIMITS, measureHtml } from '../../src/renderer/src/features/message/html-measure.ts';
import { expect, test } from './fixtures.ts';

const NAMES = ['div', 'span', 'b', 'i', 'p', 'li', 'ul', 'ol', 'table', 'tbody', 'tr', 'td', 'th', 'dl', 'dt', 'dd', 'a', 'font', 'center', 'select', 'option', 'x', 'blockquote', 'h1', 'button', 'svg', 'br', 'img'];
const token = fc.oneof(
  fc.constantFrom(...NAMES).map((name) => `<${name}>`),
  fc.constantFrom(...NAMES).map((name) => `</${name}>`),
  fc.constantFrom(...NAMES).map((name) => `<${name}/>`),
  fc.constant('text'),
);
/** A short run of tokens, repeated enough times to go past the limit when it nests. */
const soup = fc.tuple(fc.array(token, { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 700 }), fc.array(token, { maxLength: 6 })).map(
  ([unit, times, tail]) => unit.join('').repeat(times) + tail.join(''),
);

/** How deep Chromium's own parser nests each HTML, counted from inside <body> (html and body are not the email's). */
function chromiumDepths(page: Page, all: string[]): Promise<number[]> {
  return page.evaluate((htmls) => {
    const deepest = (node: Element, depth: number): number => {
      let max = depth;
      for (const child of node.children) max = Math.max(max, deepest(child, depth + 1));
      return max;
    };
    return htmls.map((html) => deepest(new DOMParser().parseFromString(html, 'text/html').body, 0));
  }, all);
}

test('the pre-scan refuses every tag soup Chromium nests deeper than the limit', async ({ browser }) => {
  test.setTimeout(120_000);
  const page = await browser.newPage();
  const inputs = fc.sample(soup, { numRuns: 3000, seed: 20261126 });
  // Known shapes from the attack run and from real mail, then the random ones.
  inputs.unshift('<div></x>'.repeat(10_000), '<div/>'.repeat(400), '<table><td>'.repeat(100), '<ul><li>'.repeat(150), '<b><p>'.repeat(300), '<p><div>'.repeat(300));
  const depths = await chromiumDepths(page, inputs);
  const missed = inputs
    .map((html, i) => ({ html, browser: depths[i]!, scan: measureHtml(html) }))
    .filter(({ browser, scan }) => browser > HTML_LIMITS.depth && scan.verdict === 'ok');
  expect(missed.map(({ html, browser, scan }) => `${html.slice(0, 60)}… browser ${browser}, scan ${scan.depth}`)).toEqual([]);
  // And ordinary nesting passes: the scan is not simply refusing everything.
  const shallow = inputs.filter((_html, i) => depths[i]! <= 20);
  expect(shallow.filter((html) => measureHtml(html).verdict === 'ok').length).toBeGreaterThan(shallow.length * 0.9);
  await page.close();
});

test('real mail passes the pre-scan, which never sees it shallower than Chromium does', async ({ browser }) => {
  const page = await browser.newPage();
  const dir = resolve('resources/demo/mail');
  const corpus: string[] = [];
  for (const file of (await readdir(dir)).sort()) {
    const parsed = await parseMessage(await readFile(join(dir, file)));
    if (parsed.html) corpus.push(parsed.html);
  }
  expect(corpus.length).toBeGreaterThan(10);
  const depths = await chromiumDepths(page, corpus);
  for (const [i, html] of corpus.entries()) {
    const scan = measureHtml(html);
    expect(scan.depth, html.slice(0, 80)).toBeGreaterThanOrEqual(Math.min(depths[i]!, HTML_LIMITS.depth + 1));
  }
  // Every demo email renders (the hostile ones are hostile in other ways than depth).
  expect(corpus.filter((html) => measureHtml(html).verdict !== 'ok')).toEqual([]);
  await page.close();
});
