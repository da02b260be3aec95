import { describe, expect, it } from 'vitest';
import { validateAutomationInput } from '../../src/shared/domain/automation.ts';
import { matchAutomation } from '../../src/shared/domain/automation-match.ts';
import { listQueryToSearchParams } from '../../src/shared/domain/list-query.ts';
import { canPrefetch } from '../../src/shared/domain/rate-budget.ts';
import { sizeForHuman } from '../../src/shared/domain/size.ts';
import { normalizeTimestamp, serviceTimestamp, zonelessTimestamp } from '../../src/shared/domain/time.ts';
import { negotiate } from '../../src/server/negotiate.ts';

describe('timestamps', () => {
  it('reads both forms the service sends, as UTC', () => {
    expect(normalizeTimestamp('2018-01-19T12:23:27+00:00')).toBe('2018-01-19T12:23:27.000Z');
    expect(normalizeTimestamp('2018-01-19T14:23:27+02:00')).toBe('2018-01-19T12:23:27.000Z');
    expect(normalizeTimestamp('2018-01-19 12:23:27')).toBe('2018-01-19T12:23:27.000Z');
    expect(normalizeTimestamp('yesterday')).toBeNull();
    const date = new Date('2018-01-19T12:23:27.456Z');
    expect(serviceTimestamp(date)).toBe('2018-01-19T12:23:27+00:00');
    expect(zonelessTimestamp(date)).toBe('2018-01-19 12:23:27');
    // Past year 9999 toISOString has six digits and a sign: still well formed.
    const far = new Date(Date.UTC(12_000, 0, 2, 3, 4, 5));
    expect(serviceTimestamp(far)).toBe('+012000-01-02T03:04:05+00:00');
    expect(zonelessTimestamp(far)).toBe('+012000-01-02 03:04:05');
  });

  it('reads UTC to the second exactly as a Date round trip would, invalid days included', () => {
    const slow = (v: string) => {
      const millis = Date.parse(v);
      return Number.isNaN(millis) ? null : new Date(millis).toISOString();
    };
    const samples = [
      '2024-02-29T23:59:59+00:00', '2023-02-29T10:00:00+00:00', '1900-02-29T00:00:00Z', '2000-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z', '2026-13-01T00:00:00Z', '2026-00-10T00:00:00Z', '2026-01-00T00:00:00Z',
      '2026-01-01T24:00:00Z', '2026-01-01T23:60:00Z', '2026-01-01T23:59:60Z', '0001-01-01T00:00:00+00:00',
    ];
    for (let day = 0; day < 800; day += 7) samples.push(new Date(Date.UTC(2024, 0, 1) + day * 86_400_000 + day * 1234_000).toISOString().replace('.000Z', '+00:00'));
    for (const sample of samples) expect(normalizeTimestamp(sample), sample).toBe(slow(sample));
  });
});

describe('sizes', () => {
  it('formats as the service does: decimal units, two decimals, no space', () => {
    expect(sizeForHuman(512)).toBe('512.00B');
    expect(sizeForHuman(34_000)).toBe('34.00kB');
    expect(sizeForHuman(48_080_000)).toBe('48.08MB');
    expect(sizeForHuman(0)).toBe('0.00B');
  });
});

describe('list query', () => {
  it('becomes the query string the service reads; false flags and blanks are left out', () => {
    expect(listQueryToSearchParams({ page: 2, limit: 50, search: '  tips ', unread: true, favorite: false, inbox: '' }).toString()).toBe(
      'page=2&limit=50&search=tips&unread=1',
    );
  });
});

describe('automation rules', () => {
  it('accept a full, valid body and normalise empties to null', () => {
    const checked = validateAutomationInput({
      title: '  Invoices ', sender: '', inbox: 'billing@acme.test', subject: '^Invoice', has_attachments: true,
      action_url: 'https://hooks.example/x', action_secret_token: 's', action_delete_email: false, payload_format: 'raw',
    });
    expect(checked).toEqual({
      ok: true,
      value: {
        title: 'Invoices', sender: null, inbox: 'billing@acme.test', subject: '^Invoice', has_attachments: true,
        action_url: 'https://hooks.example/x', action_email: null, action_secret_token: 's', action_delete_email: false, payload_format: 'raw',
      },
    });
  });

  it('name every field that is wrong', () => {
    const checked = validateAutomationInput({
      sender: 'nope', inbox: 'a b@c', subject: '[', action_url: 'javascript:alert(1)',
      has_attachments: 'true', action_delete_email: 0, payload_format: 'xml', action_secret_token: 5,
    });
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(Object.keys(checked.errors).sort()).toEqual([
      'action_delete_email', 'action_secret_token', 'action_url', 'has_attachments', 'inbox', 'payload_format', 'sender', 'subject', 'title',
    ]);
    expect(validateAutomationInput(null)).toEqual({ ok: false, errors: { body: ['The body must be a JSON object.'] } });
    expect(validateAutomationInput({ title: 'x'.repeat(256) }).ok).toBe(false);
  });

  it('match when every non-empty criterion hits, case-insensitively (MailCare: every criterion a regular expression)', () => {
    const target = { subject: 'Invoice 42 for March', sender: 'Billing@Vendor.test', inbox: 'ap@acme.test', attachmentCount: 1 };
    const rule = { subject: '^invoice \\d+', sender: 'billing@vendor', inbox: null, has_attachments: true };
    expect(matchAutomation(rule, target, 'regex')).toEqual(['subject', 'sender', 'has_attachments']);
    expect(matchAutomation({ ...rule, has_attachments: true }, { ...target, attachmentCount: 0 }, 'regex')).toBeNull();
    expect(matchAutomation({ ...rule, inbox: 'support@' }, target, 'regex')).toBeNull();
    expect(matchAutomation({ subject: null, sender: null, inbox: null, has_attachments: false }, target, 'regex')).toEqual([]);
    expect(matchAutomation({ ...rule, subject: '(' }, target, 'regex')).toBeNull();
  });

  it('match sender and inbox as whole addresses where the API document says they are addresses', () => {
    const target = { subject: 'Order 5', sender: 'bot+orders@shop.test', inbox: 'support+vip@inbox.test', attachmentCount: 0 };
    expect(matchAutomation({ subject: null, sender: 'bot+orders@shop.test', inbox: 'SUPPORT+vip@inbox.test', has_attachments: false }, target, 'address')).toEqual(['sender', 'inbox']);
    expect(matchAutomation({ subject: null, sender: 'orders@shop.test', inbox: null, has_attachments: false }, target, 'address')).toBeNull();
    expect(matchAutomation({ subject: null, sender: 'alice@acme.test', inbox: null, has_attachments: false }, { ...target, sender: 'malice@acme.test' }, 'address')).toBeNull();
  });
});

describe('Accept negotiation', () => {
  const offered = ['text/html', 'text/plain', 'message/rfc2822', 'application/json', 'application/vnd.service.v1+json'];
  it('honours q-values, wildcards and specificity; ties go to the service order', () => {
    expect(negotiate('application/vnd.service.v1+json', offered)).toBe('application/vnd.service.v1+json');
    expect(negotiate(undefined, offered)).toBe('text/html');
    expect(negotiate('*/*', offered)).toBe('text/html');
    expect(negotiate('text/*;q=0.5, message/rfc2822', offered)).toBe('message/rfc2822');
    expect(negotiate('text/*, text/html;q=0', offered)).toBe('text/plain');
    expect(negotiate('application/*', offered)).toBe('application/json');
    expect(negotiate('image/png', offered)).toBeNull();
    expect(negotiate('text/html;q=0', offered)).toBeNull();
    expect(negotiate('TEXT/PLAIN; charset=utf-8', offered)).toBe('text/plain');
  });
});

describe('rate budget', () => {
  it('allows prefetching only with room to spare and no block in force', () => {
    expect(canPrefetch({ limit: null, remaining: null, blockedUntil: null })).toBe(true);
    expect(canPrefetch({ limit: 60, remaining: 11, blockedUntil: null })).toBe(true);
    expect(canPrefetch({ limit: 60, remaining: 10, blockedUntil: null })).toBe(false);
    expect(canPrefetch({ limit: 60, remaining: 50, blockedUntil: 2_000 }, 1_000)).toBe(false);
    expect(canPrefetch({ limit: 60, remaining: 50, blockedUntil: 500 }, 1_000)).toBe(true);
  });
});
