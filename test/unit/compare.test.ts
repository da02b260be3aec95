import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { headerChanges, pixelDiff, subjectKind, textDiff } from '../../src/main/qa/compare.ts';
import { accessibilityReport } from '../../src/main/qa/accessibility.ts';

/** A white PNG with each given rectangle painted black. */
function png(width: number, height: number, boxes: { x: number; y: number; w: number; h: number }[] = []): Buffer {
  const image = new PNG({ width, height });
  image.data.fill(255);
  for (const box of boxes) {
    for (let y = box.y; y < box.y + box.h; y++) {
      for (let x = box.x; x < box.x + box.w; x++) image.data.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
    }
  }
  return PNG.sync.write(image);
}

describe('compare with the previous one', () => {
  it('takes emails whose subjects differ only in numbers and codes for one kind', () => {
    expect(subjectKind('Your code is 483920')).toBe(subjectKind('Your code is 118274'));
    expect(subjectKind('Order A-1041 confirmed')).toBe(subjectKind('Re: Order A-1042 confirmed'));
    expect(subjectKind('Order A-1041 confirmed')).not.toBe(subjectKind('Order A-1041 shipped'));
    expect(subjectKind('Weekly news')).not.toBe(subjectKind('Order A-1041 confirmed'));
  });

  it('lists the headers that changed, not those every message has anew', () => {
    const base = 'Date: Mon, 02 Nov 2026 08:00:00 +0000\r\nMessage-ID: <a@x>\r\nSubject: Order 1\r\nX-Template: v1\r\nReceived: from a\r\nList-Id: news\r\n\r\nbody';
    const current = 'Date: Tue, 03 Nov 2026 08:00:00 +0000\r\nMessage-ID: <b@x>\r\nSubject: Order 2\r\nX-Template: v2\r\nReceived: from b\r\nX-New: yes\r\n\r\nbody';
    expect(headerChanges(base, current)).toEqual([
      { name: 'Subject', base: 'Order 1', current: 'Order 2' },
      { name: 'X-Template', base: 'v1', current: 'v2' },
      { name: 'List-Id', base: 'news', current: null },
      { name: 'X-New', base: null, current: 'yes' },
    ]);
  });

  it('diffs text line by line: kept, removed, added', async () => {
    expect((await textDiff('Hello\nYour order 1\nBye', 'Hello\nYour order 2\nBye')).lines).toEqual([
      { kind: 'same', text: 'Hello' },
      { kind: 'removed', text: 'Your order 1' },
      { kind: 'added', text: 'Your order 2' },
      { kind: 'same', text: 'Bye' },
    ]);
    // Far from a change, unchanged lines are one gap: two lines of context either side.
    const base = Array.from({ length: 20 }, (_, i) => `line ${i}`);
    const current = base.map((line, i) => (i === 10 ? 'line ten' : line));
    const far = await textDiff(base.join('\n'), current.join('\n'));
    expect(far.changed).toBe(2);
    expect(far.lines.map((l) => (l.kind === 'gap' ? l.text : `${l.kind[0]} ${l.text}`))).toEqual([
      '… 8 unchanged lines', 's line 8', 's line 9', 'r line 10', 'a line ten', 's line 11', 's line 12',
    ]);
  });

  it('finds no change in two identical renderings, and boxes a changed rectangle in 24 px cells', () => {
    const same = pixelDiff(png(200, 120), png(200, 120));
    expect(same.changed).toBe(0);
    expect(same.regions).toEqual([]);
    const diff = pixelDiff(png(200, 120), png(200, 120, [{ x: 50, y: 30, w: 20, h: 10 }]));
    expect(diff.changed).toBe(200);
    // Cells 48-72 by 24-48 hold the rectangle (x 50-69, y 30-39).
    expect(diff.regions).toEqual([{ x: 48, y: 24, width: 24, height: 24 }]);
    // Two rectangles far apart are two regions; a taller email's new part counts as changed.
    const two = pixelDiff(png(200, 120), png(200, 160, [{ x: 0, y: 0, w: 10, h: 10 }, { x: 150, y: 100, w: 10, h: 10 }]));
    expect(two.regions.length).toBeGreaterThanOrEqual(2);
    expect(two.height).toBe(160);
  });
});

describe('the accessibility report', () => {
  const node = (line: number | null, html: string) => ({ line, html });
  const violation = (id: string, nodes: { line: number | null; html: string }[]) => ({ id, impact: 'serious' as const, help: id, helpUrl: '', nodes });

  it('makes one finding of an element both runs found, and tells light-only and dark-only elements apart', () => {
    const elements = { checked: 3, total: 3 };
    const light = { elements, violations: [violation('color-contrast', [node(13, '<p class="faint" data-source-line="13">x</p>')]), violation('html-has-lang', [node(2, '<html data-scheme="light">')])] };
    const dark = {
      elements,
      violations: [
        violation('color-contrast', [node(13, '<p class="faint" data-source-line="13">x</p>'), node(14, '<p class="night">y</p>')]),
        violation('html-has-lang', [node(2, '<html data-scheme="dark">')]),
      ],
    };
    const report = accessibilityReport(light, dark);
    const summary = report.findings.map((f) => `${f.rule} ${f.modes.join('+')} ${f.lines.join(',')} ${f.occurrences}`);
    expect(summary.sort()).toEqual(['color-contrast dark 14 1', 'color-contrast light+dark 13 1', 'html-has-lang light+dark 2 1']);
    expect(report.findings.find((f) => f.rule === 'html-has-lang')!.example).toBe('<html>');
  });
});
