/** The store's ids: a new email's id is an RFC 9562 version 7 UUID, in the order of arrival. */
import { describe, expect, it } from 'vitest';
import { timeOrderedUuid } from '../../src/server/ids.ts';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedUuid', () => {
  it('is a version 7 UUID whose first 48 bits are the time in ms, the rest random', () => {
    const at = Date.UTC(2026, 10, 28, 1, 2, 3, 456);
    const ids = Array.from({ length: 10_000 }, () => timeOrderedUuid(at));
    for (const id of ids.slice(0, 100)) expect(id).toMatch(V7);
    // The timestamp, read back as RFC 9562 §5.7 lays it out.
    expect(parseInt(ids[0]!.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts ids made in later milliseconds after earlier ones, as text', () => {
    const start = Date.UTC(2026, 0, 1);
    const ids = Array.from({ length: 1000 }, (_, i) => timeOrderedUuid(start + i * 7));
    expect([...ids].sort()).toEqual(ids);
  });
});
