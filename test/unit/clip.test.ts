import { describe, expect, it } from 'vitest';
import { clipHtml, clipText, sizeOfChars } from '../../src/shared/domain/clip.ts';

describe('clipping long bodies', () => {
  it('leaves a body under the limit whole', () => {
    expect(clipHtml('<p>short</p>', 100)).toEqual({ content: '<p>short</p>', clipped: false, total: 12 });
    expect(clipText('short', 100).clipped).toBe(false);
  });

  it('cuts HTML after a tag, never inside one', () => {
    const html = `<div>${'<p class="row">cell</p>'.repeat(20)}</div>`;
    const clip = clipHtml(html, 50);
    expect(clip.clipped).toBe(true);
    expect(clip.total).toBe(html.length);
    expect(clip.content.length).toBeLessThanOrEqual(50);
    expect(clip.content.endsWith('>')).toBe(true);
    expect(html.startsWith(clip.content)).toBe(true);
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
