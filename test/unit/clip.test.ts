import { describe, expect, it } from 'vitest';
import { clipHtml, clipText, sizeOfChars } from '../../src/shared/domain/clip.ts';

describe('clipping long bodies', () => {
  it('leaves a body under the limit whole', () => {
    expect(clipHtml('<p>short</p>', 100)).toEqual({ content: '<p>short</p>', clipped: false, total: 12 });
    expect(clipText('short', 100).clipped).toBe(false);
  });

  it('cuts HTML before a tag the limit falls in, never inside one', () => {
    const html = `<div>${'<p class="row">cell</p>'.repeat(20)}</div>`;
    // 55 falls inside the third <p class="row">, which opens at 5 + 2 × 23 = 51.
    const clip = clipHtml(html, 55);
    expect(clip.clipped).toBe(true);
    expect(clip.total).toBe(html.length);
    expect(clip.content).toBe(`<div>${'<p class="row">cell</p>'.repeat(2)}`);
    expect(html.startsWith(clip.content)).toBe(true);
  });

  it('cuts HTML inside a long text at the limit, never in a surrogate pair', () => {
    const html = `<p>${'word '.repeat(100)}</p>`;
    expect(clipHtml(html, 50).content).toBe(html.slice(0, 50));
    const emoji = `<p>${'😀'.repeat(100)}</p>`;
    const clip = clipHtml(emoji, 50);
    // 3 + 2 × 23 = 49: the 24th emoji would be cut in two.
    expect(clip.content).toBe(`<p>${'😀'.repeat(23)}`);
  });

  it('cuts text at the end of a line', () => {
    const text = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n');
    const clip = clipText(text, 100);
    expect(clip.clipped).toBe(true);
    expect(text[clip.content.length]).toBe('\n');
    expect(sizeOfChars(10 * 1024 * 1024)).toBe('10.0 MB');
    expect(sizeOfChars(102_400)).toBe('100 KB');
  });
});
