/**
 * readWellFormedEmail reads a record without zod. The plain model is
 * EmailSchema itself: whatever the fast reader answers must be exactly what
 * the schema makes of the same record (same values, same key order), and
 * anything it declines the schema still reads or refuses. And it must not
 * decline the records real services write, or it is no faster.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { ServiceClient } from '../../src/main/api/client.ts';
import { EmailSchema, readWellFormedEmail } from '../../src/shared/domain/email.ts';
import type { FlavorName } from '../../src/shared/flavors/index.ts';
import { rawMail } from '../support/mail.ts';

/** A field's value: usually what a service writes, sometimes anything JSON can hold. */
const odd = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.string(),
  fc.constantFrom('12', '-3', '1.5', '', ' '),
  fc.constant([]),
  fc.constant({}),
);
const often = <T>(usual: fc.Arbitrary<T>) => fc.oneof({ weight: 40, arbitrary: usual }, { weight: 1, arbitrary: odd });
const timestamp = fc.constantFrom(
  '2026-11-27T04:29:46+00:00',
  '2026-11-27T04:29:46Z',
  '2026-02-29T10:00:00+00:00',
  '2024-02-29T10:00:00+00:00',
  '2026-11-27T06:29:46+02:00',
  '2026-11-27 04:29:46',
  '2026-11-27T04:29:46.123456Z',
  '2026-13-01T00:00:00+00:00',
  'yesterday',
  '',
);
const text = fc.oneof(fc.string(), fc.constant(null));
const address = fc.record(
  { id: often(text), display_name: often(text), email: often(fc.emailAddress()), created_at: often(fc.option(timestamp)), updated_at: often(fc.option(timestamp)), extra: odd },
  { requiredKeys: [] },
);
const attachment = fc.record(
  {
    id: often(fc.uuid()),
    email_id: often(text),
    headers_hashed: often(text),
    file_name: often(text),
    content_type: often(fc.constantFrom('application/pdf', '', null)),
    size_in_bytes: often(fc.nat()),
    created_at: often(fc.option(timestamp)),
    updated_at: often(fc.option(timestamp)),
    size_for_human: often(text),
  },
  { requiredKeys: ['id', 'size_in_bytes'] },
);
const record = fc.record(
  {
    id: often(fc.uuid()),
    sender: often(address),
    inbox: often(address),
    carbon_copies: often(fc.option(fc.array(often(fc.record({ display_name: often(text), email: often(fc.emailAddress()) })), { maxLength: 3 }))),
    subject: often(text),
    created_at: often(timestamp),
    read: often(fc.option(timestamp)),
    favorite: often(fc.option(fc.boolean())),
    has_html: often(fc.boolean()),
    has_text: often(fc.boolean()),
    size_in_bytes: often(fc.nat()),
    attachments: often(fc.option(fc.array(often(attachment), { maxLength: 3 }))),
    links: odd,
  },
  { requiredKeys: ['id', 'sender', 'inbox', 'created_at'] },
);

describe('reading an email record without zod', () => {
  it('answers exactly what EmailSchema makes of the record, or declines it', () => {
    let read = 0;
    fc.assert(
      fc.property(fc.oneof(record, odd), (raw) => {
        const fast = readWellFormedEmail(raw);
        const schema = EmailSchema.safeParse(raw);
        if (fast === null) return;
        read += 1;
        expect(schema.success).toBe(true);
        expect(fast).toStrictEqual(schema.data);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(schema.data));
      }),
      { numRuns: 4000 },
    );
    // The generator reaches the fast path often, or the property says little.
    expect(read).toBeGreaterThan(400);
  });

  describe.each<FlavorName>(['service-v1', 'mailcare'])('records as the reference service writes them (%s)', (flavor) => {
    let service: RunningService;
    beforeAll(async () => {
      service = await startReferenceService({ flavor, teams: [{ id: 'demo', token: 'token' }], seedDir: 'resources/demo/mail' });
      await service.inject(rawMail({ subject: 'With a copy', cc: 'Copy <copy@example.test>', attachment: { name: 'a.pdf', type: 'application/pdf', content: 'x' } }));
    });
    afterAll(() => service.close());

    it('are every one read on the fast path, as EmailSchema reads them', async () => {
      const client = new ServiceClient(flavor === 'mailcare' ? { baseUrl: service.baseUrl, teamId: '', token: null, flavor } : { baseUrl: service.baseUrl, teamId: 'demo', token: 'token' });
      const page = await client.listEmails({ page: 1, limit: 100 });
      expect(page.data.length).toBeGreaterThan(10);
      // MailCare's list leaves the attachments and copies to the email's own record.
      if (flavor === 'service-v1') expect(page.data.some((email) => email.attachments.length > 0 && email.carbon_copies.length > 0)).toBe(true);
      for (const email of page.data) {
        const raw = client.serverRecord(email.id);
        expect(readWellFormedEmail(raw)).toStrictEqual(EmailSchema.parse(raw));
      }
    });
  });
});
