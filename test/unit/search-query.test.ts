import { describe, expect, it } from 'vitest';
import { parseDay, parseSearch, planSearch, toggleIs, withoutTerm } from '../../src/shared/domain/search-query.ts';

const NOW = new Date(2026, 10, 25, 15, 30); // 25 Nov 2026, local time
const plan = (input: string) => {
  const parsed = parseSearch(input, NOW);
  expect(parsed.errors, input).toEqual([]);
  return planSearch(parsed, NOW);
};
const local = (y: number, m: number, d: number) => new Date(y, m - 1, d);

describe('the search box’s query language', () => {
  it('maps every term onto the API’s filters', () => {
    expect(plan('from:Billing@Vendor.test').query).toEqual({ sender: 'billing@vendor.test' });
    expect(plan('to:support@acme.test').query).toEqual({ inbox: 'support@acme.test' });
    expect(plan('inbox:support@acme.test').query).toEqual({ inbox: 'support@acme.test' });
    expect(plan('subject:"Invoice *"').query).toEqual({ subject: 'Invoice *' });
    expect(plan('is:unread').query).toEqual({ unread: true });
    expect(plan('is:starred').query).toEqual({ favorite: true });
    expect(plan('after:2026-11-01').query).toEqual({ since: new Date(local(2026, 11, 1).getTime() - 1).toISOString() });
    expect(plan('before:2026/11/03').query).toEqual({ until: local(2026, 11, 3).toISOString() });
    expect(plan('has:attachment')).toEqual({ query: {}, onPage: { hasAttachment: true }, partial: [] });
    expect(plan('quarterly report').query).toEqual({ search: 'quarterly report' });
    expect(plan('"exact phrase" is:unread from:a@b.test').query).toEqual({ search: 'exact phrase', unread: true, sender: 'a@b.test' });
    expect(plan('').query).toEqual({});
  });

  it('reads days as people type them, in local time', () => {
    expect(parseDay('today', NOW)).toEqual(local(2026, 11, 25));
    expect(parseDay('yesterday', NOW)).toEqual(local(2026, 11, 24));
    expect(parseDay('7d', NOW)).toEqual(local(2026, 11, 18));
    expect(parseDay('2026-02-30', NOW)).toBeNull();
    expect(parseDay('soon', NOW)).toBeNull();
    expect(plan('after:yesterday').query.since).toBe(new Date(local(2026, 11, 24).getTime() - 1).toISOString());
  });

  it('searches a partial address as text, and says which ones to offer addresses for', () => {
    expect(plan('from:billing')).toEqual({ query: { search: 'billing' }, onPage: { hasAttachment: false }, partial: [{ field: 'from', value: 'billing' }] });
    expect(plan('to:support').partial).toEqual([{ field: 'to', value: 'support' }]);
  });

  it('puts errors where they are, and sends nothing for them', () => {
    const unknown = parseSearch('hello frm:alice', NOW);
    expect(unknown.errors).toEqual([{ start: 6, end: 15, message: expect.stringContaining('“frm:” is not a search term') }]);
    expect(unknown.terms.map((t) => t.raw)).toEqual(['hello']);
    expect(parseSearch('is:read', NOW).errors[0]!.message).toMatch(/is:unread and is:starred/);
    expect(parseSearch('has:pdf', NOW).errors[0]!.message).toMatch(/has:attachment/);
    expect(parseSearch('after:someday', NOW).errors[0]!.message).toMatch(/not a day/);
    expect(parseSearch('from:', NOW).errors[0]!.message).toMatch(/needs a value/);
    expect(parseSearch('from:a@b.test from:c@d.test', NOW).errors[0]!.message).toMatch(/Only one from:/);
    const reversed = parseSearch('after:2026-11-10 before:2026-11-01', NOW);
    expect(reversed.errors).toEqual([{ start: 0, end: 34, message: expect.stringContaining('nothing can match') }]);
  });

  it('keeps quoted values whole, colons and all', () => {
    const parsed = parseSearch('subject:"Re: invoice 12" "a: b"', NOW);
    expect(parsed.errors).toEqual([]);
    expect(parsed.terms.map((t) => [t.kind, t.value])).toEqual([['subject', 'Re: invoice 12'], ['text', 'a: b']]);
    // An unclosed quote runs to the end rather than failing.
    expect(parseSearch('subject:"open ended', NOW).terms[0]).toMatchObject({ kind: 'subject', value: 'open ended' });
  });

  it('removes a chip’s term and toggles is: terms for the u and f keys', () => {
    const input = 'invoice from:a@b.test is:unread';
    const from = parseSearch(input, NOW).terms[1]!;
    expect(withoutTerm(input, from)).toBe('invoice is:unread');
    expect(toggleIs(input, 'unread', NOW)).toBe('invoice from:a@b.test');
    expect(toggleIs('invoice', 'starred', NOW)).toBe('invoice is:starred');
    expect(toggleIs('is:favorite', 'starred', NOW)).toBe('');
  });
});
