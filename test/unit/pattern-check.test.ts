import { describe, expect, it } from 'vitest';
import { checkPattern } from '../../src/shared/domain/pattern-check.ts';

describe('checking a rule’s pattern as it is typed', () => {
  it('puts each error at its position', () => {
    expect(checkPattern('^Invoice (')).toMatchObject({ error: { at: 9, message: expect.stringContaining('never closed') } });
    expect(checkPattern('a)b').error).toMatchObject({ at: 1, message: expect.stringContaining('closes nothing') });
    expect(checkPattern('*invoice').error).toMatchObject({ at: 0, message: expect.stringContaining('repeats nothing') });
    expect(checkPattern('x|+y').error).toMatchObject({ at: 2 });
    expect(checkPattern('[abc').error).toMatchObject({ at: 0, message: expect.stringContaining('never closed with ]') });
    expect(checkPattern('end\\').error).toMatchObject({ at: 3 });
    expect(checkPattern('(a)\\1').error).toMatchObject({ at: 3, message: expect.stringContaining('RE2') });
    expect(checkPattern('foo(?=bar)').error).toMatchObject({ at: 3, message: expect.stringContaining('Lookahead') });
  });

  it('lets MailCare (PCRE) keep what only RE2 refuses', () => {
    expect(checkPattern('(a)\\1', 'mailcare').error).toBeNull();
    expect(checkPattern('foo(?=bar)', 'mailcare').error).toBeNull();
  });

  it('accepts ordinary patterns, escapes, classes and lazy repeats', () => {
    for (const ok of ['^Invoice', 'INV-\\d{4}', '[(*)]', 'a+?b', '(?:re|fwd): ', '@vendor\\.test$', 'x{2,}', '[]a]']) {
      expect(checkPattern(ok), ok).toEqual({ error: null, warnings: [] });
    }
  });

  it('warns when a pattern matches everything or nests repeats', () => {
    expect(checkPattern('.*').warnings).toEqual([expect.stringContaining('matches every email')]);
    expect(checkPattern('(a+)+$').warnings).toEqual([expect.stringContaining('harmless on this service')]);
    expect(checkPattern('(a+)+$', 'mailcare').warnings).toEqual([expect.stringContaining('catastrophic')]);
  });
});
