import { describe, expect, it } from 'vitest';
import { HTML_LIMITS, measureHtml } from '../../../src/renderer/src/features/message/html-measure.ts';

const timed = (html: string) => {
  const began = performance.now();
  const measure = measureHtml(html);
  return { measure, ms: performance.now() - began };
};

describe('the HTML pre-scan (security finding 2)', () => {
  it('refuses 100,000 nested divs (1.1 MB) and 293 KB of unclosed <b>, in milliseconds', () => {
    const nested = timed(`${'<div>'.repeat(100_000)}x${'</div>'.repeat(100_000)}`);
    expect(nested.measure.verdict).toBe('too-deep');
    expect(nested.ms).toBeLessThan(50);
    const unclosed = timed('<b>x'.repeat(73_250));
    expect(unclosed.measure.verdict).toBe('too-deep');
    expect(unclosed.ms).toBeLessThan(50);
  });

  it('is not fooled by end tags nothing opened, nor by slashes HTML ignores (issue 18)', () => {
    expect(measureHtml('<div></x>'.repeat(10_000)).verdict).toBe('too-deep');
    expect(measureHtml('<div/>'.repeat(300)).verdict).toBe('too-deep');
    expect(measureHtml('<table><td>'.repeat(100)).verdict).toBe('too-deep');
    // While real closes still close: stray end tags among well-formed mail change nothing.
    expect(measureHtml('<div></x></div>'.repeat(10_000))).toMatchObject({ depth: 1, verdict: 'ok' });
    expect(measureHtml('<p>a</x></p>'.repeat(1_000))).toMatchObject({ depth: 1, verdict: 'ok' });
  });

  it('refuses too many elements and too many bytes', () => {
    expect(measureHtml('<span>x</span>'.repeat(HTML_LIMITS.elements + 1)).verdict).toBe('too-many-elements');
    expect(measureHtml('x'.repeat(HTML_LIMITS.bytes + 1)).verdict).toBe('too-large');
  });

  it('passes ordinary mail, including tags that close themselves', () => {
    const newsletter = `<!doctype html><html><head><style>p{color:red}</style><title>t</title></head><body>${'<table><tr><td><p>row<br><img src="x"><td>cell</table>'.repeat(500)}<ul>${'<li>item'.repeat(1000)}</ul><!-- <div><div> --></body></html>`;
    const measure = measureHtml(newsletter);
    expect(measure.verdict).toBe('ok');
    expect(measure.depth).toBeLessThan(10);
    expect(measureHtml('<div><div><div></div></div></div>')).toMatchObject({ elements: 3, depth: 3, verdict: 'ok' });
    expect(measureHtml('<script><div><div><div></script><p>')).toMatchObject({ depth: 1 });
  });

  it('stays linear on inputs built to make scanners quadratic', () => {
    for (const hostile of ['<a'.repeat(900_000), '<style>'.repeat(250_000), '<!--'.repeat(450_000), `<style>${'x'.repeat(1_900_000)}`, '<'.repeat(1_900_000)]) {
      const { ms } = timed(hostile);
      expect(ms, hostile.slice(0, 12)).toBeLessThan(200);
    }
  });
});
