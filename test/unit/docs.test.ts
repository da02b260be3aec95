/**
 * The README and docs/ as a newcomer reads them: the README short, every page
 * of docs/ linked from it, every link landing on a file and a heading that
 * exist, and every npm script they name one that package.json has.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const PAGES = ['README.md', 'CONTRIBUTING.md', ...readdirSync('docs').filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
const read = (path: string) => readFileSync(path, 'utf8');

/** A heading's anchor as GitHub writes it: lower case, marks dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
const anchorsOf = (text: string) => new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
/** Markdown links and images outside code: [text](target). */
const linksOf = (text: string) => [...text.replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);

describe('the README and docs/', () => {
  it('keep the README to what a newcomer needs, under about 200 lines, with every docs page linked', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    for (const heading of ['## Start', "## Catch your own app's mail in a minute", '## Your tests get the code', '## Keys', '## Read more']) expect(readme).toContain(heading);
    for (const page of PAGES.filter((p) => p.startsWith('docs/'))) expect(readme, page).toContain(`](${page})`);
  });

  it('link only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const link of linksOf(read(page))) {
        if (/^[a-z]+:/i.test(link)) continue;
        const [file, anchor] = link.split('#') as [string, string | undefined];
        const target = file === '' ? page : normalize(join(dirname(page), file));
        if (!existsSync(target)) {
          broken.push(`${page}: ${link} (no ${target})`);
          continue;
        }
        if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(read(target)).has(anchor)) broken.push(`${page}: ${link} (no heading #${anchor})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('name only npm scripts that package.json has', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const named = new Set<string>();
    for (const page of PAGES) {
      for (const m of read(page).matchAll(/\bnpm run (?:--silent )?([a-z][\w:-]*)/g)) named.add(m[1]!);
      if (/\bnpm test\b/.test(read(page))) named.add('test');
    }
    expect(named.size).toBeGreaterThan(5);
    expect([...named].filter((name) => !Object.hasOwn(scripts, name))).toEqual([]);
  });
});
