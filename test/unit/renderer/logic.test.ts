import { describe, expect, it } from 'vitest';
import { dayBounds, EMPTY_FILTERS, listQueryFor, nextSelection } from '../../../src/renderer/src/features/inbox/slice.ts';
import { actionFor, SHORTCUTS } from '../../../src/renderer/src/features/keyboard/shortcuts.ts';
import { formatAvailable, preferredFormat } from '../../../src/renderer/src/features/message/slice.ts';

const key = (k: string, extra: Partial<{ ctrlKey: boolean; inField: boolean }> = {}) => ({
  key: k, ctrlKey: false, metaKey: false, altKey: false, inField: false, ...extra,
});

describe('keyboard map', () => {
  it('maps single keys outside fields, and only Escape inside them', () => {
    expect(actionFor(key('j'), false)).toBe('next');
    expect(actionFor(key('ArrowUp'), false)).toBe('previous');
    expect(actionFor(key('#'), false)).toBe('delete');
    expect(actionFor(key('j', { inField: true }), false)).toBeNull();
    expect(actionFor(key('Escape', { inField: true }), false)).toBe('close');
    expect(actionFor(key('r', { ctrlKey: true }), false)).toBeNull();
  });

  it('reads g-sequences', () => {
    expect(actionFor(key('g'), false)).toBe('g');
    expect(actionFor(key('a'), true)).toBe('go-automations');
    expect(actionFor(key('s'), true)).toBe('go-settings');
    expect(actionFor(key('x'), true)).toBeNull();
  });

  it('lists a shortcut for every action it can produce', () => {
    const listed = new Set(SHORTCUTS.map((s) => s.action));
    const produced = new Set<string>();
    for (const k of 'abcdefghijklmnopqrstuvwxyz0123456789#/?'.split('').concat(['Enter', 'Escape', 'Delete', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'])) {
      for (const afterG of [false, true]) {
        const action = actionFor(key(k), afterG);
        if (action && action !== 'g') produced.add(action);
      }
    }
    const unlisted = [...produced].filter(
      (a) => !listed.has(a as never) && !['format-text', 'format-raw', 'go-automations', 'go-settings'].includes(a),
    );
    expect(unlisted).toEqual([]);
  });
});

describe('list logic', () => {
  it('builds the query from filters and page', () => {
    expect(listQueryFor({ ...EMPTY_FILTERS, search: 'x', unread: true }, 3, 50)).toEqual({
      page: 3, limit: 50, search: 'x', inbox: undefined, sender: undefined, unread: true, favorite: undefined,
      since: undefined, until: undefined,
    });
  });

  it('turns a day range into exclusive instants that include both days', () => {
    const { since, until } = dayBounds('2026-11-02', '2026-11-03');
    const startOf2nd = new Date('2026-11-02T00:00:00').getTime();
    const startOf4th = new Date('2026-11-04T00:00:00').getTime();
    expect(Date.parse(since!)).toBe(startOf2nd - 1);
    expect(Date.parse(until!)).toBe(startOf4th);
    expect(dayBounds('', '')).toEqual({ since: undefined, until: undefined });
    expect(dayBounds('not-a-day', '')).toEqual({ since: undefined, until: undefined });
  });

  it('moves the selection within the page', () => {
    const ids = ['a', 'b', 'c'];
    expect(nextSelection(ids, null, 1)).toBe('a');
    expect(nextSelection(ids, null, -1)).toBe('c');
    expect(nextSelection(ids, 'b', 1)).toBe('c');
    expect(nextSelection(ids, 'c', 1)).toBe('c');
    expect(nextSelection(ids, 'a', -1)).toBe('a');
    expect(nextSelection(ids, 'gone', 1)).toBe('a');
    expect(nextSelection([], 'a', 1)).toBeNull();
  });

  it('opens an email in the first format it has', () => {
    expect(preferredFormat({ has_html: true, has_text: true })).toBe('html');
    expect(preferredFormat({ has_html: false, has_text: true })).toBe('text');
    expect(preferredFormat({ has_html: false, has_text: false })).toBe('raw');
    expect(formatAvailable({ has_html: false, has_text: true }, 'html')).toBe(false);
    expect(formatAvailable({ has_html: false, has_text: false }, 'raw')).toBe(true);
  });
});
