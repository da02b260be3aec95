/**
 * R (a rule from the open email) fills the form with what the form itself accepts: the subject as a
 * pattern within the service's limit, the title within its own. The patterns are checked by the
 * JavaScript regular-expression engine, not by the code that built them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../../../src/renderer/src/store.ts';
import { exactPattern } from '../../../src/renderer/src/features/automations/slice.ts';
import { PATTERN_LIMIT, TITLE_MAX, validateAutomationInput } from '../../../src/shared/domain/automation.ts';
import { email, fakeMain } from './fake-main.ts';

describe('a rule from an email', () => {
  it('matches the whole subject, and only it, when it fits; else its start, within the limit', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 700 }), (subject) => {
        const pattern = exactPattern(subject);
        expect(pattern.length).toBeLessThanOrEqual(PATTERN_LIMIT);
        const engine = new RegExp(pattern);
        expect(engine.test(subject)).toBe(true);
        // An end anchor is a $ after an even number of backslashes (\\$ ends in an escaped backslash, then the anchor).
        const anchored = /(?:^|[^\\])(?:\\\\)*\$$/.test(pattern);
        if (anchored) expect(engine.test(`${subject}x`)).toBe(false);
        else expect(pattern.length).toBeGreaterThan(PATTERN_LIMIT - 12);
      }),
      { numRuns: 300 },
    );
  });

  it('fills a form that saves as it stands from a hostile email: a 3,000-character subject and sender name', async () => {
    const main = fakeMain({ emails: [] });
    const store = createAppStore(main.effects);
    const long = email(1, { subject: `${'a'.repeat(2998)}.?`, sender: { id: 's', display_name: 'N\u0301'.repeat(1500), email: 'sender@example.test', created_at: null, updated_at: null } });
    store.getState().ruleFromEmail(long);
    const { draft, view } = store.getState();
    expect(view).toBe('automations');
    expect(draft.title.length).toBeLessThanOrEqual(TITLE_MAX);
    expect(draft.title.startsWith('From N\u0301N\u0301')).toBe(true);
    // Not half a character at the cut: the letter keeps its accent, then the ellipsis.
    expect(draft.title.endsWith('N\u0301…')).toBe(true);
    expect(new RegExp(draft.subject).test(long.subject)).toBe(true);
    const checked = validateAutomationInput({ ...draft, action_url: 'https://hooks.example.test/in' }, 'service-v1');
    expect(checked.ok ? [] : Object.keys(checked.errors)).toEqual([]);
  });
});
