/**
 * One message to To, Cc and Bcc is one entry on This computer: the service
 * keeps a row per recipient (the seed's per-inbox API answers as before), and
 * `group=delivery` lists the message once, found by any recipient, with every
 * recipient; `whole=delivery` reads, stars and deletes all of it. Sent by
 * nodemailer over real SMTP; read by plain HTTP and by main's own client as
 * This computer opens it.
 */
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/api/client.ts';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';

const TOKEN = 'delivery-test-token-0123456789';

describe('one message to To, Cc and Bcc', () => {
  let service: RunningService;
  const api = (path: string, init: RequestInit = {}) => fetch(`${service.baseUrl}/api/teams/this-computer/${path}`, { ...init, headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'application/json' } });
  const list = async (query = '') => (await (await api(`emails${query}`)).json()) as { data: { id: string; inbox: { email: string }; favorite: boolean; read: string | null; delivered_to?: string[] }[]; meta: { total: number } };
  const send = async (subject: string) => {
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: service.smtpPort!, secure: false, ignoreTLS: true });
    await transport.sendMail({ from: 'app@myapp.test', to: 'to@example.test', cc: 'cc@example.test', bcc: 'hidden@example.test', subject, text: 'Your code is 123456.' });
    await transport.sendMail({ from: 'app@myapp.test', to: 'alone@example.test', subject: `${subject} (alone)`, text: 'Hi.' });
    transport.close();
  };

  beforeAll(async () => {
    service = await startReferenceService({ teams: [{ id: 'this-computer', token: TOKEN }], catcher: true, rateLimit: 0, smtpPort: 0, smtp: { host: '127.0.0.1', auth: 'any' } });
    await send('Welcome');
  });
  afterAll(async () => {
    await service?.close();
  });

  it('the per-inbox API answers as before: a row per recipient, no new field', async () => {
    const rows = await list();
    expect(rows.meta.total).toBe(4);
    expect(rows.data.map((e) => e.inbox.email).sort()).toEqual(['alone@example.test', 'cc@example.test', 'hidden@example.test', 'to@example.test']);
    expect(rows.data.every((e) => e.delivered_to === undefined)).toBe(true);
  });

  it('group=delivery lists the message once, with every recipient, found by any of them', async () => {
    const grouped = await list('?group=delivery');
    expect(grouped.meta.total).toBe(2);
    expect(grouped.data.map((e) => e.delivered_to)).toEqual([['alone@example.test'], ['to@example.test', 'cc@example.test', 'hidden@example.test']]);
    for (const inbox of ['to@example.test', 'cc@example.test', 'hidden@example.test']) {
      const found = await list(`?group=delivery&inbox=${inbox}`);
      expect(found.meta.total, inbox).toBe(1);
      expect(found.data[0]!.inbox.email, inbox).toBe(inbox);
      expect(found.data[0]!.delivered_to, inbox).toEqual(['to@example.test', 'cc@example.test', 'hidden@example.test']);
    }
    expect((await list('?group=delivery&search=hidden@')).meta.total).toBe(1);
    expect((await list('?group=delivery&limit=1&page=2')).data.map((e) => e.delivered_to?.length)).toEqual([3]);
  });

  it('main’s client for This computer lists it once, and its star, read and delete reach every row', async () => {
    const client = new ServiceClient({ baseUrl: service.baseUrl, teamId: 'this-computer', token: TOKEN, byDelivery: true });
    const page = await client.listEmails({}, { fresh: true });
    expect(page.meta.total).toBe(2);
    const message = page.data.find((e) => e.delivered_to?.length === 3)!;
    expect(message.delivered_to).toEqual(['to@example.test', 'cc@example.test', 'hidden@example.test']);

    await client.setFavorite(message.id, true);
    const read = await client.getEmail(message.id);
    expect(read.delivered_to).toEqual(['to@example.test', 'cc@example.test', 'hidden@example.test']);
    const rows = (await list()).data.filter((e) => e.inbox.email !== 'alone@example.test');
    expect(rows.map((e) => [e.favorite, e.read !== null])).toEqual([
      [true, true],
      [true, true],
      [true, true],
    ]);

    await client.deleteEmail(message.id);
    expect((await list()).data.map((e) => e.inbox.email)).toEqual(['alone@example.test']);
    expect((await client.listEmails({}, { fresh: true })).meta.total).toBe(1);
  });

  it('another server’s client (no byDelivery) still deletes one row alone', async () => {
    await send('Second');
    const client = new ServiceClient({ baseUrl: service.baseUrl, teamId: 'this-computer', token: TOKEN });
    const cc = (await client.listEmails({ inbox: 'cc@example.test' }, { fresh: true })).data[0]!;
    expect(cc.delivered_to).toBeUndefined();
    await client.deleteEmail(cc.id);
    expect((await list('?subject=Second')).data.map((e) => e.inbox.email).sort()).toEqual(['hidden@example.test', 'to@example.test']);
  });
});
