/**
 * What the reference service does as a catcher: keeps the newest N (and no
 * older than N days), empties the mailbox on DELETE /emails, and tells its
 * host of each arrival as soon as the email is stored.
 */
import { describe, expect, it } from 'vitest';
import { ServiceClient } from '../../src/main/api/client.ts';
import { startReferenceService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';

const api = (baseUrl: string, path: string, init: RequestInit = {}) => fetch(`${baseUrl}/api/teams/t${path}`, { ...init, headers: { Authorization: 'Bearer t' } });

describe('the catcher’s service', () => {
  it('keeps the newest N as mail arrives, and none older than N days', async () => {
    const service = await startReferenceService({ teams: [{ id: 't', token: 't' }], retention: { keep: 3, days: 7 } });
    try {
      for (let i = 1; i <= 5; i++) {
        await service.inject(rawMail({ subject: `Mail ${i}` }));
        // A millisecond apart at least, so that "newest" is the list's order too.
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
      const subjects = async () => ((await (await api(service.baseUrl, '/emails')).json()) as { data: { subject: string }[] }).data.map((e) => e.subject);
      expect(await subjects()).toEqual(['Mail 5', 'Mail 4', 'Mail 3']);
      // One of them eight days old: gone at the next prune (arrival, start, or the hour).
      const team = service.service.team('t');
      team.updateEmail(team.page({ search: 'Mail 3' }).emails[0]!.id, { createdAt: new Date(Date.now() - 8 * 86_400_000) });
      expect(service.service.prune()).toBe(1);
      expect(await subjects()).toEqual(['Mail 5', 'Mail 4']);
    } finally {
      await service.close();
    }
  });

  it('empties the mailbox on DELETE /emails, and answers how many went', async () => {
    const service = await startReferenceService({ teams: [{ id: 't', token: 't' }] });
    try {
      for (let i = 1; i <= 4; i++) await service.inject(rawMail({ subject: `Mail ${i}` }));
      const response = await api(service.baseUrl, '/emails', { method: 'DELETE' });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ deleted: 4 });
      expect(((await (await api(service.baseUrl, '/emails')).json()) as { meta: { total: number } }).meta.total).toBe(0);
      expect(service.service.team('t').checkIntegrity()).toEqual([]);
    } finally {
      await service.close();
    }
  });

  it('MailCare has no such route: 405, as the real one answers (the differential test holds the message to it), which the client takes as "not offered"', async () => {
    const service = await startReferenceService({ flavor: 'mailcare' });
    try {
      const answer = await fetch(`${service.baseUrl}/api/emails`, { method: 'DELETE', headers: { Accept: 'application/json' } });
      expect(answer.status).toBe(405);
      expect(((await answer.json()) as { message: string }).message).toBe('The DELETE method is not supported for this route. Supported methods: GET, HEAD, POST.');
      const client = new ServiceClient({ baseUrl: service.baseUrl, teamId: '', token: null, flavor: 'mailcare' });
      await expect(client.deleteAllEmails(new Date().toISOString())).rejects.toMatchObject({ kind: 'unsupported' });
      expect(client.isUnsupported('deleteAllEmails')).toBe(true);
    } finally {
      await service.close();
    }
  });

  it('tells its host of each arrival once stored, one email per recipient', async () => {
    const service = await startReferenceService({ teams: [{ id: 't', token: 't' }] });
    try {
      const heard: string[][] = [];
      service.service.onArrival((_team, emails) => heard.push(emails.map((e) => e.inbox.email)));
      await service.inject(rawMail({ subject: 'Hi' }), { recipients: ['a@x.test', 'b@x.test'] });
      expect(heard).toEqual([['a@x.test', 'b@x.test']]);
    } finally {
      await service.close();
    }
  });
});
