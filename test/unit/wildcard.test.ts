import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wildcardMatch } from '../../src/server/wildcard.ts';

/** The plain model: a star is `.*`, the rest literal, the whole subject, any case. */
const model = (pattern: string, text: string) =>
  new RegExp(`^${pattern.split('*').map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'is').test(text);

describe('the subject filter’s wildcard (issue 19)', () => {
  it('agrees with a regular expression on 20,000 random patterns and subjects', () => {
    const alphabet = fc.constantFrom('a', 'b', 'A', '*', ' ', 'é');
    fc.assert(
      fc.property(fc.string({ unit: alphabet, maxLength: 8 }), fc.string({ unit: fc.constantFrom('a', 'b', 'A', ' ', 'é', '*'), maxLength: 14 }), (pattern, text) => {
        expect(wildcardMatch(pattern, text)).toBe(model(pattern, text));
      }),
      { numRuns: 20_000, seed: 7 },
    );
  });

  it('is linear: the pattern that took seconds takes milliseconds', () => {
    const subjects = Array.from({ length: 50 }, () => 'a'.repeat(5000));
    const pattern = `*${'a'.repeat(3000)}b`;
    const began = performance.now();
    expect(subjects.some((s) => wildcardMatch(pattern, s))).toBe(false);
    expect(performance.now() - began).toBeLessThan(50);
    expect(wildcardMatch(`*${'a'.repeat(3000)}`, 'a'.repeat(5000))).toBe(true);
  });
});
