/** The text view's pieces against the plain model: joined, they are the text; none is over the limit; long lines are cut, short ones kept whole. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinPieces, PIECE_CHARS, textPieces } from '../../src/shared/domain/text-pieces.ts';

describe('textPieces', () => {
  it('gives back the text, every piece within the limit, and cuts only lines longer than it', () => {
    const line = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ minLength: 0, maxLength: 120 }), fc.constant(''));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }).map((lines) => lines.join('\n')), fc.integer({ min: 5, max: 50 }), (text, limit) => {
        const pieces = textPieces(text, limit);
        expect(joinPieces(pieces)).toBe(text);
        for (const piece of pieces) expect(piece.text.length).toBeLessThanOrEqual(limit);
        // A line within the limit is never cut: it lies whole in one piece.
        for (const short of text.split('\n').filter((l) => l.length > 0 && l.length <= limit)) {
          expect(pieces.some((p) => p.text.split('\n').includes(short))).toBe(true);
        }
      }),
    );
  });

  it('cuts one unbroken 300 KB line into pieces of the limit', () => {
    const pieces = textPieces('x'.repeat(300_000));
    expect(pieces).toHaveLength(300_000 / PIECE_CHARS);
    expect(pieces.slice(1).every((p) => p.continues)).toBe(true);
  });
});
