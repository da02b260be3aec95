/**
 * Sanitizing in slices (a long email, so no key waits on it) must give what
 * sanitizing at once gives, byte for byte: then it is exactly as safe. The
 * module runs in Chromium, built from source by Vite; the mail is the demo
 * corpus (its hostile messages included), classic XSS and mXSS payloads, and
 * a long newsletter, each sliced finely enough that every container is split.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build } from 'vite';
import type * as Sanitize from '../../src/renderer/src/features/message/sanitize.ts';
import { parseMessage } from '../../src/server/ingest.ts';
import { expect, test } from './fixtures.ts';

const PAYLOADS = [
  '<img src=x onerror=alert(1)><p>text</p>',
  '<svg><g/onload=alert(2)//<p>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(3)></style></mglyph></table></mtext></math>',
  '<form><math><mtext></form><form><mglyph><svg><mtext><style><path id="</style><img onerror=alert(4) src>">',
  '<noscript><p title="</noscript><img src=x onerror=alert(5)>"></noscript>',
  '<a href="javascript:alert(6)">x</a><a href="https://ok.test/" target=_blank>ok</a><area href="mailto:a@b.test">',
  '<table><tr><td><div><a href="jav&#x09;ascript:alert(7)">t</a></div></td></tr></table>',
  '<style>@import url(https://evil.test/a.css); p { background: url(https://evil.test/p.png) }</style><p style="background:url(https://evil.test/x.png);color:red;position:fixed">p</p>',
  '<div><iframe srcdoc="<script>alert(8)</script>"></iframe><object data=x></object><embed src=y></div>',
  '<table><tbody><tr><td><template><img src=x onerror=alert(9)></template><input autofocus onfocus=alert(10)></td></tr></tbody></table>',
  '<div id="x"><b><i><u><span style="font-size:12px">deep <img src="cid:logo"> <img src="https://cdn.test/a.png"></span></u></i></b></div>',
  '<!-- <img src=x onerror=alert(11)> --><p>after a comment</p><![CDATA[ x ]]><?pi x?>',
  '<ul><li>one<li>two<ul><li>three</ul></ul><dl><dt>a<dd>b</dl><blockquote><p>q</blockquote>',
  'plain text & no markup > at all',
  '<table onmouseover=alert(12)><tr style="position:sticky"><td onclick=alert(13) background="https://x.test/b.png"><div onfocus=alert(14) tabindex=1>x</div></td></tr></table>',
  '<center><font color=red><table width=600><tr><td><p>x</p></td></tr></table></font></center>',
];

const newsletter = (rows: number) =>
  `<h1>Long</h1><center><table width="600" style="border-collapse:collapse">${Array.from(
    { length: rows },
    (_, i) => `<tr><td style="padding:4px;border-bottom:1px solid #eee"><a href="https://shop.test/${i}">Item ${i}</a></td><td><img src="https://cdn.test/${i}.png"> Offer details.</td></tr>`,
  ).join('')}</table></center><p>Unsubscribe</p>`;

test('sanitizing in slices gives what sanitizing at once gives', async ({ browser }) => {
  test.setTimeout(60_000);
  const built = await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: false,
      lib: { entry: resolve('src/renderer/src/features/message/sanitize.ts'), formats: ['iife'], name: 'sanitize' },
    },
  });
  const code = (Array.isArray(built) ? built[0]! : built as { output: { code?: string }[] }).output[0]!.code!;

  const corpus: string[] = [...PAYLOADS, newsletter(400)];
  const dir = resolve('resources/demo/mail');
  for (const file of (await readdir(dir)).sort()) {
    const parsed = await parseMessage(await readFile(join(dir, file)));
    if (parsed.html) corpus.push(parsed.html);
  }

  const page = await browser.newPage();
  await page.evaluate(code);
  const results = await page.evaluate(async (htmls) => {
    const { sanitizeEmailHtml, sanitizeEmailHtmlInSlices } = (window as unknown as { sanitize: typeof Sanitize }).sanitize;
    const inline = { logo: 'data:image/png;base64,AAAA' };
    const out: { atOnce: unknown; slices: unknown[] }[] = [];
    for (const html of htmls) {
      for (const options of [{ allowRemote: false, inline }, { allowRemote: true }]) {
        out.push({
          atOnce: sanitizeEmailHtml(html, options),
          // One element a call and no time to spare: every container is split and every slice yields;
          // five: small siblings go in together; then as the reader runs it.
          slices: [
            await sanitizeEmailHtmlInSlices(html, options, { elements: 1, sliceMs: 0 }),
            await sanitizeEmailHtmlInSlices(html, options, { elements: 5, sliceMs: 0 }),
            await sanitizeEmailHtmlInSlices(html, options),
          ],
        });
      }
    }
    return out;
  }, corpus);
  expect(results.length).toBe(corpus.length * 2);
  for (const [i, { atOnce, slices }] of results.entries()) {
    for (const sliced of slices) expect(sliced, `mail ${Math.floor(i / 2)}: ${corpus[Math.floor(i / 2)]!.slice(0, 80)}`).toEqual(atOnce);
  }
  // The corpus is hostile: something was taken out of it.
  for (const handler of ['onerror', 'onclick', 'onmouseover', 'onfocus', 'javascript:']) expect(JSON.stringify(results)).not.toContain(handler);
  await page.close();
});
