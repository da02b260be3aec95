/**
 * Compare with the previous one (B): what changed between two emails of the
 * same kind, as a tester changing a template wants to see it. The text line by
 * line (jsdiff), the headers that changed (not those every message has anew),
 * the links added and gone, the code, and the two renderings diffed pixel by
 * pixel (pixelmatch) with the changed regions boxed. Pure: main's handler
 * hands in the bodies, the header sections and the screenshots.
 */
import { diffLines } from 'diff';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import type { CompareReport } from '../../shared/contract.ts';
import { parseHeaders } from '../../shared/domain/headers.ts';
import { htmlTextAndLinks, insightsOf, linksOfText } from '../../shared/domain/mail-insights.ts';

/**
 * The kind of an email, from its subject: what stays when the parts that
 * change from one email to the next (numbers, codes, a reply's prefix) are
 * taken out. "Your code is 483920" and "Your code is 118274" are one kind.
 */
export function subjectKind(subject: string): string {
  return subject
    .normalize('NFKC')
    .toLowerCase()
    .replace(/^(?:\s*(?:re|fwd?|aw|wg)\s*:)+/i, '')
    // A token with a digit in it (a code, an order number, a date) is the part that changes.
    .replace(/[\p{L}\p{N}_-]*\p{N}[\p{L}\p{N}_-]*/gu, '#')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Headers every message has anew (trace, identity, signatures): their changing says nothing about the template. */
const VOLATILE_HEADERS = new Set([
  'received', 'date', 'message-id', 'dkim-signature', 'arc-seal', 'arc-message-signature', 'arc-authentication-results',
  'authentication-results', 'x-received', 'return-path', 'delivered-to', 'x-original-to', 'received-spf', 'x-fuzz-case',
]);

/** Each header whose values differ between the two sections (all of a repeated header's values, in order). */
export function headerChanges(base: string, current: string): CompareReport['headers'] {
  const collect = (section: string) => {
    const map = new Map<string, { name: string; values: string[] }>();
    for (const { name, value } of parseHeaders(section)) {
      const key = name.toLowerCase();
      if (VOLATILE_HEADERS.has(key)) continue;
      const entry = map.get(key) ?? { name, values: [] };
      entry.values.push(value);
      map.set(key, entry);
    }
    return map;
  };
  const a = collect(base);
  const b = collect(current);
  const changes: CompareReport['headers'] = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const was = a.get(key)?.values.join('\n') ?? null;
    const now = b.get(key)?.values.join('\n') ?? null;
    if (was !== now) changes.push({ name: (b.get(key) ?? a.get(key))!.name, base: was, current: now });
  }
  return changes;
}

/** The text a reader reads: the text part, else the HTML's text. */
export function readableText(body: { format: 'html' | 'text'; content: string }): string {
  return body.format === 'html' ? htmlTextAndLinks(body.content).text : body.content.replace(/\r\n?/g, '\n');
}

/** Text beyond this is not diffed (a template's text is some kilobytes; a newsletter's can be megabytes). */
export const TEXT_DIFF_CHARS = 300_000;
/** A diff that takes longer than this gives up (two texts with little in common cost the most). */
const TEXT_DIFF_MS = 2_000;

/** Lines of unchanged text kept around each change, and the lines a report carries at most. */
const CONTEXT = 2;
const SHOWN_LINES = 300;

/**
 * The two texts line by line (jsdiff's diffLines, in its async mode so main's
 * event loop goes on meanwhile): the changed lines with a little context, a
 * gap for what is left out, at most SHOWN_LINES of them (two unrelated
 * newsletters differ on every line); `changed` counts every changed line;
 * `note` says when the texts were cut or the diff gave up.
 */
export async function textDiff(base: string, current: string): Promise<{ lines: CompareReport['text']; changed: number; note: string | null }> {
  const cut = base.length > TEXT_DIFF_CHARS || current.length > TEXT_DIFF_CHARS;
  const prepare = (text: string) => {
    const head = text.slice(0, TEXT_DIFF_CHARS);
    return head.endsWith('\n') ? head : `${head}\n`;
  };
  const parts = await new Promise<ReturnType<typeof diffLines> | undefined>((resolve) =>
    diffLines(prepare(base), prepare(current), { timeout: TEXT_DIFF_MS, callback: resolve }),
  );
  if (!parts) return { lines: [], changed: 0, note: 'The texts differ too much to compare line by line.' };
  const all: { kind: 'same' | 'added' | 'removed'; text: string }[] = [];
  for (const part of parts) {
    const kind = part.added ? 'added' : part.removed ? 'removed' : 'same';
    for (const text of part.value.replace(/\n$/, '').split('\n')) all.push({ kind, text });
  }
  const shown = withContext(all);
  const changed = all.filter((line) => line.kind !== 'same').length;
  const notes = [
    cut ? `Only the first ${TEXT_DIFF_CHARS.toLocaleString('en')} characters of each text are compared.` : null,
    shown.length > SHOWN_LINES ? `The first ${SHOWN_LINES} lines of the changes are shown.` : null,
  ].filter((note) => note !== null);
  return { lines: shown.slice(0, SHOWN_LINES), changed, note: notes.length > 0 ? notes.join(' ') : null };
}

/** The changed lines with CONTEXT lines around them; a gap stands for each run left out. */
function withContext(lines: { kind: 'same' | 'added' | 'removed'; text: string }[]): CompareReport['text'] {
  const keep: number[] = [];
  let last = -1;
  lines.forEach((line, i) => {
    if (line.kind === 'same') return;
    for (let j = Math.max(last + 1, i - CONTEXT); j <= Math.min(lines.length - 1, i + CONTEXT); j++) keep.push(j);
    last = Math.max(last, Math.min(lines.length - 1, i + CONTEXT));
  });
  const out: CompareReport['text'] = [];
  let previous = -1;
  for (const i of keep) {
    const skipped = i - previous - 1;
    if (skipped > 0) out.push({ kind: 'gap', text: `… ${skipped} unchanged ${skipped === 1 ? 'line' : 'lines'}` });
    out.push(lines[i]!);
    previous = i;
  }
  return out;
}

/** The links of a body, as the link check reads them. */
function linksOf(body: { format: 'html' | 'text'; content: string }): string[] {
  const links = body.format === 'html' ? htmlTextAndLinks(body.content).links : linksOfText(body.content);
  return [...new Set(links.map((link) => link.url))];
}

export function linkChanges(base: { format: 'html' | 'text'; content: string }, current: { format: 'html' | 'text'; content: string }): CompareReport['links'] {
  const was = linksOf(base);
  const now = linksOf(current);
  return { added: now.filter((url) => !was.includes(url)), removed: was.filter((url) => !now.includes(url)) };
}

export function codeChange(
  base: { subject: string; body: { format: 'html' | 'text'; content: string } },
  current: { subject: string; body: { format: 'html' | 'text'; content: string } },
): CompareReport['code'] {
  return { base: insightsOf(base.subject, base.body).code?.code ?? null, current: insightsOf(current.subject, current.body).code?.code ?? null };
}

/** A cell of this many pixels square is the unit a changed region is made of. */
const CELL = 24;

/**
 * The two renderings diffed pixel by pixel (pixelmatch, anti-aliasing
 * ignored). The smaller one is padded with white to the larger's size (an
 * email that grew shows its new part as changed). Changed cells that touch
 * make one region, boxed in the current rendering's coordinates.
 */
export function pixelDiff(basePng: Buffer, currentPng: Buffer): NonNullable<CompareReport['pixels']> {
  const a = PNG.sync.read(basePng);
  const b = PNG.sync.read(currentPng);
  const width = Math.max(a.width, b.width);
  const height = Math.max(a.height, b.height);
  const pad = (image: PNG) => {
    if (image.width === width && image.height === height) return image.data;
    const data = Buffer.alloc(width * height * 4, 255);
    for (let y = 0; y < image.height; y++) image.data.copy(data, y * width * 4, y * image.width * 4, (y + 1) * image.width * 4);
    return data;
  };
  const diff = new PNG({ width, height });
  const changed = pixelmatch(pad(a), pad(b), diff.data, width, height, { threshold: 0.1, includeAA: false, alpha: 0.2 });
  return { width, height, changed, total: width * height, regions: changed === 0 ? [] : regionsOf(diff.data, width, height) };
}

/**
 * A rendering as the report shows it: half the size each way (the panel shows
 * two side by side), as a PNG: a quarter of the bytes to serve and decode.
 */
export function halfSize(png: Buffer): Buffer {
  const full = PNG.sync.read(png);
  const width = Math.max(1, Math.floor(full.width / 2));
  const height = Math.max(1, Math.floor(full.height / 2));
  const half = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 4; c++) {
        const at = (dy: number, dx: number) => full.data[((2 * y + dy) * full.width + 2 * x + dx) * 4 + c]!;
        half.data[(y * width + x) * 4 + c] = (at(0, 0) + at(0, 1) + at(1, 0) + at(1, 1) + 2) >> 2;
      }
    }
  }
  return PNG.sync.write(half);
}

/** Regions of pixelmatch's output (changed pixels are pure red, 255/0/0), as boxes of touching changed cells. */
function regionsOf(diff: Buffer, width: number, height: number): { x: number; y: number; width: number; height: number }[] {
  const columns = Math.ceil(width / CELL);
  const rows = Math.ceil(height / CELL);
  const marked = new Uint8Array(columns * rows);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if (diff[i] === 255 && diff[i + 1] === 0 && diff[i + 2] === 0) marked[Math.floor(y / CELL) * columns + Math.floor(x / CELL)] = 1;
    }
  }
  const regions: { x: number; y: number; width: number; height: number }[] = [];
  const seen = new Uint8Array(columns * rows);
  for (let start = 0; start < marked.length; start++) {
    if (!marked[start] || seen[start]) continue;
    let [left, top, right, bottom] = [columns, rows, 0, 0];
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const cell = stack.pop()!;
      const cx = cell % columns;
      const cy = Math.floor(cell / columns);
      [left, top, right, bottom] = [Math.min(left, cx), Math.min(top, cy), Math.max(right, cx), Math.max(bottom, cy)];
      for (const [nx, ny] of [[cx - 1, cy], [cx + 1, cy], [cx, cy - 1], [cx, cy + 1]] as const) {
        if (nx < 0 || ny < 0 || nx >= columns || ny >= rows) continue;
        const next = ny * columns + nx;
        if (marked[next] && !seen[next]) {
          seen[next] = 1;
          stack.push(next);
        }
      }
    }
    const x = left * CELL;
    const y = top * CELL;
    regions.push({ x, y, width: Math.min(width, (right + 1) * CELL) - x, height: Math.min(height, (bottom + 1) * CELL) - y });
  }
  return regions;
}
