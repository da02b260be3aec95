/**
 * The HTML compatibility check (issue 23) with the real caniemail package and
 * its data: a hand-written email whose features and lines were counted by hand,
 * answered against caniemail.com's own feature titles; then the worker that
 * runs it off main's event loop.
 */
import { caniemail, rawData } from 'caniemail';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPAT_CLIENTS, compatReport, markDataGaps, splitStyles, type CompatCheck } from '../../src/main/qa/compat.ts';
import { runCompat } from '../../src/main/qa/run-compat.ts';

const check = caniemail as unknown as CompatCheck;
type Raw = Parameters<typeof markDataGaps>[0];
// As the worker does before its first check.
markDataGaps(rawData as unknown as Raw);
const TITLES = new Set((rawData as unknown as { data: { title: string }[] }).data.map((f) => f.title));

// Line numbers counted by hand.
const EMAIL = [
  '<!doctype html>', // 1
  '<html>', // 2
  '<head>', // 3
  '<style>', // 4
  '.card { display: flex; border-radius: 8px; }', // 5
  '@media (prefers-color-scheme: dark) { .card { background: #111; } }', // 6
  '</style>', // 7
  '</head>', // 8
  '<body>', // 9
  '<div class="card" style="position: absolute;">Hi</div>', // 10
  '<table width="600"><tr><td>Cell</td></tr></table>', // 11
  '<style>', // 12
  '', // 13
  'a { display: grid; }', // 14
  '</style>', // 15
  '</body>', // 16
  '</html>', // 17
].join('\n');

describe('the HTML compatibility check (caniemail.com’s data)', () => {
  const report = compatReport(EMAIL, check);
  const finding = (feature: string) => report.findings.find((f) => f.feature === feature);

  it('names each feature by caniemail’s own title, on the line it is used', () => {
    for (const f of report.findings) expect(TITLES, f.feature).toContain(f.feature);
    expect(finding('display:flex')?.lines).toEqual([5]);
    expect(finding('border-radius')?.lines).toEqual([5]);
    expect(finding('position')?.lines).toEqual([10]);
    expect(finding('<style> element')?.lines).toEqual([4, 12]);
    expect(finding('width attribute')?.lines).toEqual([11]);
    expect(finding('display:grid')?.lines).toEqual([14]);
    // caniemail gives @media no place: it is shown at its <style> block.
    expect(finding('@media')?.lines).toEqual([4]);
  });

  it('says who lacks what as caniemail.com does: flex, grid and rounded corners are not in Outlook for Windows', () => {
    for (const feature of ['display:flex', 'display:grid', 'border-radius']) expect(finding(feature)?.unsupported, feature).toContain('outlook.windows');
    // Apple Mail has them all.
    for (const f of report.findings) expect(f.unsupported, f.feature).not.toContain('apple-mail.macos');
  });

  it('scores each family: Apple Mail above Outlook and Gmail for this email, a plain one 100 everywhere', () => {
    const score = (label: string) => report.families.find((f) => f.label === label)!.score;
    expect(score('Apple Mail')).toBeGreaterThan(score('Outlook'));
    expect(score('Apple Mail')).toBeGreaterThan(score('Gmail'));
    expect(report.families.map((f) => f.label)).toEqual(['Gmail', 'Outlook', 'Apple Mail', 'Yahoo Mail', 'Samsung Email', 'Thunderbird', 'Proton Mail', 'Fastmail', 'HEY', 'AOL']);
    const plain = compatReport('<p>Hello, <b>world</b>.</p>', check);
    expect(plain.findings).toEqual([]);
    expect(plain.families.every((f) => f.score === 100)).toBe(true);
  });

  it('a feature caniemail has no data for on a client (word-wrap on Gmail for iOS) is told as such, not a crash', () => {
    const raw = rawData as unknown as Raw;
    for (const feature of raw.data) for (const client of COMPAT_CLIENTS) expect(feature.stats?.[client.split('.')[0]!]?.[client.split('.')[1]!], client).toBeDefined();
    expect(markDataGaps(raw)).toBe(0);
    const gaps = compatReport('<p style="word-wrap: break-word">Long words</p>\n<div style="mask-image: url(a.png)">x</div>', check);
    const wordWrap = gaps.findings.find((f) => f.feature === 'word-wrap')!;
    expect(wordWrap.noData).toContain('gmail.ios');
    expect(wordWrap.partial).not.toContain('gmail.ios');
    expect(wordWrap.lines).toEqual([1]);
    const mask = gaps.findings.find((f) => f.feature === 'mask-image')!;
    expect(mask.noData).toContain('thunderbird.macos');
    expect(mask.lines).toEqual([2]);
    expect(mask.notes.join(' ')).not.toContain('no data');
  });

  it('counts lines the same in a body with CRLF line ends (as mail often has them)', () => {
    const crlf = compatReport(EMAIL.replace(/\n/g, '\r\n'), check);
    expect(crlf.findings.map((f) => [f.feature, f.lines])).toEqual(report.findings.map((f) => [f.feature, f.lines]));
  });

  it('keeps every line where it was when style text is set aside', () => {
    const { blocks, rest } = splitStyles(EMAIL);
    expect(blocks.map((b) => b.line)).toEqual([4, 12]);
    expect(rest.split('\n')).toHaveLength(17);
    expect(rest).not.toContain('display');
    // An unclosed style runs to the end, as the HTML tokenizer reads it.
    expect(splitStyles('<p>\n<STYLE media="x">\np{}').blocks).toEqual([{ css: '\np{}', line: 2 }]);
  });

  it('runs in a worker thread, and stops one that takes too long or too much memory', async () => {
    const answer = await runCompat(resolve('src/main/compat-worker.ts'), EMAIL);
    expect(answer.findings.map((f) => f.feature)).toEqual(report.findings.map((f) => f.feature));
    const big = `<table>${'<tr><td style="border-radius:4px;display:flex">x</td></tr>\n'.repeat(20_000)}</table>`;
    await expect(runCompat(resolve('src/main/compat-worker.ts'), big, 50)).rejects.toThrow(/took longer than/);
    // Out of its memory, the worker ends and says so; this process goes on.
    await expect(runCompat(resolve('src/main/compat-worker.ts'), big, 60_000, 16)).rejects.toThrow(/compatibility check failed/);
  });
});
