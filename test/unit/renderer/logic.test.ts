import { describe, expect, it } from 'vitest';
import { arrivals, listQueryFor, visibleRows } from '../../../src/renderer/src/features/inbox/slice.ts';
import { nextSelection } from '../../../src/renderer/src/features/list-cursor.ts';
import type { Email } from '../../../src/shared/domain/email.ts';
import { preferredFormat } from '../../../src/shared/domain/email.ts';
import { formatAvailable } from '../../../src/renderer/src/features/message/slice.ts';

describe('list logic', () => {
  it('builds the query from the search box and the page; errors are kept, not sent', () => {
    expect(listQueryFor('invoice is:unread', 3, 50).query).toEqual({ page: 3, limit: 50, search: 'invoice', unread: true });
    const wrong = listQueryFor('frm:x', 1, 25);
    expect(wrong.errors).toHaveLength(1);
    expect(wrong.query).toEqual({ page: 1, limit: 25 });
  });

  const mail = (id: string, created_at: string, attachments = 0) => ({ id, created_at, attachments: Array.from({ length: attachments }) }) as unknown as Email;

  it('narrows the page for has:attachment, which the server cannot filter on', () => {
    const list = { data: [mail('a', '2026-11-01', 1), mail('b', '2026-11-02')] } as never;
    expect(visibleRows(list, 'has:attachment').map((e) => e.id)).toEqual(['a']);
    expect(visibleRows(list, '').map((e) => e.id)).toEqual(['a', 'b']);
  });

  it('finds arrivals in a polled page: unseen and not older than what is shown', () => {
    const shown = [mail('b', '2026-11-02T10:00:00Z'), mail('a', '2026-11-01T10:00:00Z')];
    const polled = [mail('c', '2026-11-03T10:00:00Z'), mail('b', '2026-11-02T10:00:00Z'), mail('old', '2026-10-01T10:00:00Z')];
    expect(arrivals(shown, polled).map((e) => e.id)).toEqual(['c']);
    expect(arrivals([], polled).map((e) => e.id)).toEqual(['c', 'b', 'old']);
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

describe('outages', () => {
  it('wait 2 s, doubling to a minute, or what the server asked', async () => {
    const { outageDelayMs, OUTAGE_KINDS } = await import('../../../src/renderer/src/outage.ts');
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => outageDelayMs(n))).toEqual([2000, 4000, 8000, 16000, 32000, 60000, 60000]);
    expect(outageDelayMs(1, 42)).toBe(42_000);
    expect([...OUTAGE_KINDS].sort()).toEqual(['network', 'rate-limited', 'server', 'timeout']);
  });
});
