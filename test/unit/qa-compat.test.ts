/**
 * The HTML compatibility check (issue 23) with the real caniemail package and
 * its data: a hand-written email whose features and lines were counted by hand,
 * answered against caniemail.com's own feature titles; then the worker that
 * runs it off main's event loop.
 */
import { caniemail, rawData } from 'caniemail';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMPAT_CLIENTS, compatReport, markDataGaps, splitStyles, type CompatCheck, type FeatureData } from '../../src/main/qa/compat.ts';
import { compatWorkersStarted, runCompat } from '../../src/main/qa/run-compat.ts';

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
    // caniemail gives @media no place: it is shown on its own line in the <style> block.
    expect(finding('@media')?.lines).toEqual([6]);
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
    const startedBefore = compatWorkersStarted();
    const answer = await runCompat(resolve('src/main/compat-worker.ts'), EMAIL);
    // Warm: a second check runs in the same worker.
    await runCompat(resolve('src/main/compat-worker.ts'), '<p style="display:flex">x</p>');
    expect(compatWorkersStarted() - startedBefore).toBe(1);
    // The worker answers what caniemail's checker misses too, from the same data.
    const whole = compatReport(EMAIL, check, (rawData as unknown as { data: FeatureData[] }).data);
    expect(answer.findings.map((f) => f.feature)).toEqual(whole.findings.map((f) => f.feature));
    expect(answer.findings.map((f) => f.feature)).toContain('@media (prefers-color-scheme)');
    const big = `<table>${'<tr><td style="border-radius:4px;display:flex">x</td></tr>\n'.repeat(20_000)}</table>`;
    await expect(runCompat(resolve('src/main/compat-worker.ts'), big, 50)).rejects.toThrow(/took longer than/);
    // The stopped worker is gone: the next check gets a fresh one, and answers.
    const afterTimeout = compatWorkersStarted();
    expect((await runCompat(resolve('src/main/compat-worker.ts'), EMAIL)).findings.length).toBe(answer.findings.length);
    expect(compatWorkersStarted()).toBe(afterTimeout + 1);
    // Out of its memory, the worker ends and says so; this process goes on.
    await expect(runCompat(resolve('src/main/compat-worker.ts'), big, 60_000, 16)).rejects.toThrow(/compatibility check failed/);
  });
});

describe('what caniemail’s checker misses, answered from its data (issue 33)', () => {
  const data = (rawData as unknown as { data: FeatureData[] }).data;
  // Line numbers counted by hand.
  const MAIL = [
    '<html>', // 1
    '<head>', // 2
    '<style>', // 3
    '@font-face { font-family: Brand; src: url(brand.woff2); }', // 4
    'p { color: #222; }', // 5
    '', // 6
    '@media (prefers-color-scheme: dark) { p { color: #eee; } }', // 7
    '</style>', // 8
    '</head>', // 9
    '<body>', // 10
    '<p>Logo:</p>', // 11
    '<svg width="20" height="20"><circle cx="10" cy="10" r="8"/></svg>', // 12
    '<p>And again <svg><rect width="4" height="4"/></svg></p>', // 13
    '</body>', // 14
    '</html>', // 15
  ].join('\n');
  const report = compatReport(MAIL, check, data);
  const finding = (feature: string) => report.findings.find((f) => f.feature === feature);

  it('checks every platform of the ten families the data covers: 26, Thunderbird on Windows among them', () => {
    const families = new Set(['gmail', 'outlook', 'apple-mail', 'yahoo', 'samsung-email', 'thunderbird', 'protonmail', 'fastmail', 'hey', 'aol']);
    const inData = new Set<string>();
    for (const feature of data) for (const [family, platforms] of Object.entries(feature.stats ?? {})) if (families.has(family)) for (const platform of Object.keys(platforms ?? {})) inData.add(`${family}.${platform}`);
    expect([...COMPAT_CLIENTS].sort()).toEqual([...inData].sort());
    expect(COMPAT_CLIENTS).toHaveLength(26);
    expect(COMPAT_CLIENTS).toContain('thunderbird.windows');
  });

  it('an inline <svg>, on both its lines: Gmail has none, Apple Mail for macOS in part (with caniemail’s note), for iOS in full', () => {
    const svg = finding('Embedded <svg> image')!;
    expect(svg.lines).toEqual([12, 13]);
    for (const client of ['gmail.desktop-webmail', 'gmail.ios', 'gmail.android', 'gmail.mobile-webmail']) expect(svg.unsupported).toContain(client);
    expect(svg.partial).toContain('apple-mail.macos');
    expect([...svg.unsupported, ...svg.partial, ...svg.noData]).not.toContain('apple-mail.ios');
    expect(svg.notes.join(' ')).toContain('Requires a background on the `<body>`');
  });

  it('@media (prefers-color-scheme) on its own line: not in Gmail, in Apple Mail; besides the plain @media', () => {
    const scheme = finding('@media (prefers-color-scheme)')!;
    expect(scheme.lines).toEqual([7]);
    for (const client of ['gmail.desktop-webmail', 'gmail.ios', 'gmail.android', 'gmail.mobile-webmail']) expect(scheme.unsupported).toContain(client);
    expect([...scheme.unsupported, ...scheme.partial]).not.toContain('apple-mail.macos');
    expect(finding('@media')?.lines).toEqual([7]);
  });

  it('@font-face on its own line, not the <style> tag’s', () => {
    expect(finding('@font-face')?.lines).toEqual([4]);
    expect(finding('@font-face')?.unsupported).toContain('gmail.desktop-webmail');
  });

  it('a feature that only lacks data somewhere is not “not supported everywhere”', () => {
    for (const f of compatReport(MAIL, check, data).findings) expect(f.unsupported.length + f.partial.length, f.feature).toBeGreaterThan(0);
    // word-wrap: Gmail for iOS has no data; if every other client supports it, it is no finding at all.
    const wrap = compatReport('<p style="word-wrap: break-word">x</p>', check, data).findings.find((f) => f.feature === 'word-wrap');
    if (wrap) expect(wrap.unsupported.length + wrap.partial.length).toBeGreaterThan(0);
  });
});


describe('repeated tags checked once (the 2 MB newsletter’s speed)', () => {
  const data = (rawData as unknown as { data: FeatureData[] }).data;
  // Tags with features some client lacks, some bare; repeated, on one line and across lines.
  const TAGS = [
    '<div style="display: flex; border-radius: 8px">',
    '<td width="600" bgcolor="#eee" style="padding: 4px; position: absolute">',
    '<img src="logo.svg" width="40">',
    '<img\n  src="https://x.test/a.webp"\n  srcset="a.webp 2x">',
    '<table role="presentation" background="bg.png">',
    '<p style="word-wrap: break-word; mask-image: url(a.png)">',
    '<td>',
    '<center>',
    '<video src="a.mp4">',
    '<!-- a comment -->',
    '<svg viewBox="0 0 1 1">',
    'text',
    '</div>',
  ];
  const essential = (html: string, collapse: boolean) =>
    compatReport(html, check, data, { collapse }).findings.map((f) => ({ feature: f.feature, unsupported: f.unsupported, partial: f.partial, noData: f.noData, lines: f.lines, occurrences: f.occurrences }));

  it('finds what checking every tag finds: the same features, clients, lines and counts, on generated mail', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...TAGS), fc.constantFrom('', '\n', ' ', '\r\n')), { minLength: 1, maxLength: 60 }), (parts) => {
        // Closed by an outer element before the end: caniemail gives an element still open at the very
        // end no position (its end lies past the text), which would leave the slow way without lines.
        const html = `<section>${parts.map(([tag, gap]) => tag + gap).join('')}</section>\n`;
        expect(essential(html, true)).toEqual(essential(html, false));
      }),
      { numRuns: 150 },
    );
  });

  it('finds the same on a newsletter of a thousand like rows', () => {
    const row = (i: number) => `<tr><td style="padding:4px;border-bottom:1px solid #eee;display:flex">Item ${i}</td><td width="300" background="x.png">Offer</td></tr>\n`;
    const html = `<table>${Array.from({ length: 1000 }, (_, i) => row(i)).join('')}</table>`;
    const fast = essential(html, true);
    expect(fast).toEqual(essential(html, false));
    expect(fast.find((f) => f.feature === 'display:flex')?.occurrences).toBe(1000);
  });
});

describe('every kind of feature caniemail knows, each on a line counted by hand (issue 33)', () => {
  const data = (rawData as unknown as { data: (FeatureData & { slug: string })[] }).data;
  const CORPUS = [
    '<!doctype html>', // 1
    '<html lang="en">', // 2: an attribute (html-lang)
    '<head>', // 3
    '<style>', // 4
    'td > a:hover { color: rgba(0, 0, 0, 0.8); }', // 5: a combinator, a pseudo-class, a CSS function
    '@media (orientation: landscape) { p { font-size: 1.2em; } }', // 6: a media feature, a unit
    'h1 + p { margin: 0; }', // 7: another combinator
    '</style>', // 8
    '</head>', // 9
    '<body>', // 10
    '<video src="intro.mp4" width="320"></video>', // 11: an element
    '<table cellpadding="4"><tr><td>x</td></tr></table>', // 12: an attribute
    '<p style="width: calc(100% - 20px)">Wide</p>', // 13: an inline CSS function
    '<img src="hero.webp" alt="Hero">', // 14: an image format
    '</body>', // 15
    '</html>', // 16
  ].join('\n');
  const EXPECTED: [slug: string, line: number][] = [
    ['html-lang', 2],
    ['css-selector-child', 5],
    ['css-pseudo-class-hover', 5],
    ['css-rgba', 5],
    ['css-at-media-orientation', 6],
    ['css-unit-em', 6],
    ['css-selector-adjacent-sibling', 7],
    ['html-video', 11],
    ['html-cellpadding', 12],
    ['css-unit-calc', 13],
    ['image-webp', 14],
  ];
  const report = compatReport(CORPUS, check, data);

  /** What caniemail.com's data says of a feature on a client, read plainly: its newest entry's first letter. */
  const plain = (slug: string) => {
    const feature = data.find((f) => f.slug === slug)!;
    const newest = (client: string) => {
      const [family, platform] = client.split('.') as [string, string];
      const versions = feature.stats?.[family]?.[platform];
      return versions ? (Object.values(versions).at(-1) ?? '').trim()[0] : undefined;
    };
    return {
      title: feature.title,
      unsupported: COMPAT_CLIENTS.filter((c) => newest(c) === 'n').sort(),
      partial: COMPAT_CLIENTS.filter((c) => newest(c) === 'a').sort(),
    };
  };

  it.each(EXPECTED)('%s: on line %i, lacking in exactly the clients the data says', (slug, line) => {
    const model = plain(slug);
    const finding = report.findings.find((f) => f.feature === model.title);
    if (model.unsupported.length === 0 && model.partial.length === 0) {
      // Every client has it: nothing to report.
      expect(finding).toBeUndefined();
      return;
    }
    expect(finding, model.title).toBeDefined();
    expect(finding!.lines).toContain(line);
    expect(finding!.unsupported).toEqual(model.unsupported);
    expect(finding!.partial).toEqual(model.partial);
  });
});
