/**
 * What the app shows and sends for a webhook is what the service sends, byte
 * for byte (issue 20). The evidence is what a real socket received from the
 * reference service's own delivery, never the function that built the
 * preview: the preview's bytes, its signature, and the command "Copy as
 * curl" gives, run for real in bash, must each match it.
 */
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountManager } from '../../src/main/account/accounts.ts';
import { TokenVault } from '../../src/main/account/vault.ts';
import type { Handlers } from '../../src/main/handlers.ts';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { curlCommand } from '../../src/shared/domain/webhook-payload.ts';
import { testCipher } from '../support/cipher.ts';
import { mainHandlers, webhookReceiver } from '../support/main-handlers.ts';

const TOKEN = 'bytes-token-1';
const run = promisify(execFile);

/** An ISO-8859-1 8bit email (the issue's): 'à' is the single byte 0xE0. */
const LATIN1 = Buffer.concat([
  Buffer.from('From: Ann <ann@example.test>\r\nTo: ops@acme.test\r\nSubject: Voila\r\nDate: Mon, 02 Nov 2026 10:00:00 +0000\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=ISO-8859-1\r\nContent-Transfer-Encoding: 8bit\r\n\r\n'),
  Buffer.from([0x56, 0x6f, 0x69, 0x6c, 0xe0, 0x20, 0x6c, 0x65, 0x20, 0x72, 0xe9, 0x73, 0x75, 0x6d, 0xe9, 0x2e, 0x0d, 0x0a]),
]);
/** ASCII with what an HTML-unescape would change. */
const ENTITIES = Buffer.from('From: bot@shop.test\r\nTo: ops@acme.test\r\nSubject: Entities\r\nDate: Mon, 02 Nov 2026 10:00:00 +0000\r\n\r\nFish &amp; chips &lt;b&gt; and "quotes" and it\'s\r\n');

describe('payload bytes (issue 20)', () => {
  let service: RunningService;
  let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
  let dir = '';
  let handlers: Handlers;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    receiver = await webhookReceiver();
    service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }], allowPrivateWebhooks: true, rateLimit: 0 });
    dir = await mkdtemp(join(tmpdir(), 'inbox-desk-bytes-'));
    const accounts = await AccountManager.load(join(dir, 'settings.json'), new TokenVault(testCipher()));
    await accounts.save({ name: 'Bytes', baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    handlers = mainHandlers(accounts);
  });
  afterAll(async () => {
    handlers.dispose();
    await service.close();
    await receiver.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The service's real delivery of `raw` for a rule, as the socket received it. */
  const delivered = async (raw: Buffer, payload_format: 'raw' | 'json' | 'json_with_bodies', subject: string) => {
    const team = service.service.team('t');
    for (const id of [...team.automations.keys()]) team.deleteAutomation(id);
    const rule = { title: `Payload check ${payload_format}`, subject: `^${subject}$`, sender: null, inbox: null, has_attachments: false, action_url: receiver.url, action_email: null, action_secret_token: 'sekrit', action_delete_email: false, payload_format };
    team.createAutomation(rule);
    receiver.received.length = 0;
    const [id] = await service.inject(raw);
    await service.service.settled();
    expect(receiver.received).toHaveLength(1);
    ids[subject] = id!;
    return { rule, id: id!, got: receiver.received[0]! };
  };

  for (const [name, raw, subject] of [['ISO-8859-1 8bit', LATIN1, 'Voila'], ['ASCII with entities', ENTITIES, 'Entities']] as const) {
    it(`${name}, raw: the preview's bytes and signature are the delivery's; the raw view keeps every character`, async () => {
      const { rule, id, got } = await delivered(raw, 'raw', subject);
      expect(got.body.equals(raw)).toBe(true);
      const preview = await handlers.table.automationPayload({ emailId: id, input: rule });
      expect(Buffer.from(preview.bodyBase64, 'base64').equals(got.body)).toBe(true);
      expect(preview.bytes).toBe(got.body.length);
      expect(preview.headers['X-Service-Signature']).toBe(got.headers['x-service-signature']);
      expect(got.headers['x-service-signature']).toBe(`sha256=${createHmac('sha256', 'sekrit').update(got.body).digest('hex')}`);
      const shown = await handlers.table.getEmailBody({ id, format: 'raw', whole: true });
      if (subject === 'Voila') {
        expect(shown.content).toContain('Voilà le résumé.');
        expect(preview.bodyText).toContain('Voilà le résumé.');
      } else {
        expect(shown.content).toContain('Fish &amp; chips &lt;b&gt; and "quotes" and it\'s');
      }
    });
  }

  for (const format of ['raw', 'json', 'json_with_bodies'] as const) {
    it(`Copy as curl (${format}), run in bash, sends exactly the delivery's bytes, and its signature verifies`, async () => {
      const { rule, id, got } = await delivered(format === 'raw' ? LATIN1 : ENTITIES, format, format === 'raw' ? 'Voila' : 'Entities');
      const preview = await handlers.table.automationPayload({ emailId: id, input: rule });
      receiver.received.length = 0;
      await run('bash', ['-c', curlCommand(receiver.url, preview)]);
      expect(receiver.received).toHaveLength(1);
      const replayed = receiver.received[0]!;
      if (format === 'raw') expect(replayed.body.equals(got.body)).toBe(true);
      // The JSON's record was read after the delivery (its read mark differs): the replay must still be the preview, byte for byte.
      expect(replayed.body.equals(Buffer.from(preview.bodyBase64, 'base64'))).toBe(true);
      expect(replayed.headers['x-service-signature']).toBe(`sha256=${createHmac('sha256', 'sekrit').update(replayed.body).digest('hex')}`);
    });
  }
});

describe('MailCare: title as is, raw unescaped exactly once (issue 20)', () => {
  it('the preview carries the title MailCare sends, and the raw view shows the message as stored', async () => {
    const { url, received, close } = await webhookReceiver();
    const service = await startReferenceService({ teams: [{ id: 'default', token: 'x' }], flavor: 'mailcare', allowPrivateWebhooks: true, rateLimit: 0 });
    const dir = await mkdtemp(join(tmpdir(), 'inbox-desk-mc-bytes-'));
    const accounts = await AccountManager.load(join(dir, 'settings.json'), new TokenVault(testCipher()));
    await accounts.save({ name: 'MC', baseUrl: service.baseUrl, flavor: 'mailcare' });
    const handlers = mainHandlers(accounts);
    try {
      const rule = { title: 'Payload check json', subject: 'Entities', sender: null, inbox: null, has_attachments: false, action_url: url, action_email: null, action_secret_token: 's', action_delete_email: false, payload_format: 'raw' as const };
      service.service.team('default').createAutomation(rule);
      const [id] = await service.inject(ENTITIES);
      await service.service.settled();
      expect(received[0]!.headers['x-mailcare-title']).toBe('Payload check json');
      expect(received[0]!.body.equals(ENTITIES)).toBe(true);
      const preview = await handlers.table.automationPayload({ emailId: id!, input: rule });
      expect(preview.headers['X-MailCare-Title']).toBe('Payload check json');
      expect(Buffer.from(preview.bodyBase64, 'base64').equals(ENTITIES)).toBe(true);
      const shown = await handlers.table.getEmailBody({ id: id!, format: 'raw', whole: true });
      expect(shown.content).toContain('Fish &amp; chips &lt;b&gt; and "quotes" and it\'s');
    } finally {
      handlers.dispose();
      await service.close();
      await close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
