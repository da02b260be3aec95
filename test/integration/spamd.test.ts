/**
 * Spam scores from SpamAssassin itself (issue 33): main's handler asks a real
 * spamd over SPAMC for the raw message the reference service stores. The
 * GTUBE string must be recognised as spam; a plain transactional email must
 * score under the threshold; no spamd gives one plain sentence. SpamAssassin
 * decides every figure here: nothing is hand-scored.
 */
import { MailpitClient } from 'mailpit-api';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { AccountManager } from '../../src/main/account/accounts.ts';
import { TokenVault } from '../../src/main/account/vault.ts';
import { Catcher } from '../../src/main/catcher.ts';
import { dispatch, type Handlers } from '../../src/main/handlers.ts';
import { parseSpamdAnswer, reportRules, spamdAddress } from '../../src/server/spamc.ts';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { startCatch } from '../support/catch-command.ts';
import { testCipher } from '../support/cipher.ts';
import { mainHandlers } from '../support/main-handlers.ts';
import { rawMail } from '../support/mail.ts';
import { spamdMissing, SPAMD_REQUIRED, startSpamd, type RunningSpamd } from '../support/real-spamd.ts';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';
const missing = spamdMissing();
if (missing && !SPAMD_REQUIRED) console.warn(`[spamd] skipped: ${missing}`);

describe('SPAMC, read from spamd’s own words', () => {
  it('reads the status, the Spam header and the report’s table, wrapped descriptions joined, highest points first', () => {
    const answer = [
      'SPAMD/1.1 0 EX_OK',
      'Content-length: 420',
      'Spam: True ; 1002.3 / 5.0',
      '',
      'Spam detection software, running on the system "box", has',
      'identified this incoming email as possible spam.',
      '',
      'Content analysis details:   (1002.3 points, 5.0 required)',
      '',
      ' pts rule name              description',
      '---- ---------------------- --------------------------------------------------',
      ' 0.0 NO_RELAYS              Informational: message was not relayed via SMTP',
      '1000 GTUBE                  BODY: Generic Test for Unsolicited Bulk Email',
      ' 2.3 MISSING_HEADERS        Missing To: header and a',
      '                            second line of description',
      '-0.1 DKIM_VALID             Message has at least one valid DKIM or DK signature',
      '',
    ].join('\r\n');
    expect(parseSpamdAnswer(Buffer.from(answer))).toEqual({
      isSpam: true,
      score: 1002.3,
      threshold: 5,
      rules: [
        { name: 'GTUBE', points: 1000, description: 'BODY: Generic Test for Unsolicited Bulk Email' },
        { name: 'MISSING_HEADERS', points: 2.3, description: 'Missing To: header and a second line of description' },
        { name: 'NO_RELAYS', points: 0, description: 'Informational: message was not relayed via SMTP' },
        { name: 'DKIM_VALID', points: -0.1, description: 'Message has at least one valid DKIM or DK signature' },
      ],
    });
    expect(reportRules('no table here')).toEqual([]);
    expect(() => parseSpamdAnswer(Buffer.from('SPAMD/1.1 76 Bad header line: x\r\n\r\n'))).toThrow(/could not score this email: Bad header line/);
    expect(() => parseSpamdAnswer(Buffer.from('HTTP/1.1 200 OK\r\n\r\n'))).toThrow(/something other than SPAMD/);
    expect(spamdAddress('127.0.0.1:783')).toEqual({ host: '127.0.0.1', port: 783 });
    expect(spamdAddress('spam.lan')).toEqual({ host: 'spam.lan', port: 783 });
    expect(spamdAddress('[::1]:7830')).toEqual({ host: '::1', port: 7830 });
    expect(spamdAddress('not a host:1')).toBeNull();
  });
});

describe.skipIf(missing !== null && !SPAMD_REQUIRED)('spam scores from a real spamd, through main’s handler', () => {
  let spamd: RunningSpamd;
  let service: RunningService;
  let handlers: Handlers;
  let accounts: AccountManager;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    if (missing) throw new Error(`spamd is required here (INBOX_DESK_SPAMD=required): ${missing}`);
    spamd = await startSpamd();
    service = await startReferenceService({ teams: [{ id: 'qa', token: 'qa-token' }] });
    const dir = await mkdtemp(join(tmpdir(), 'inbox-desk-spam-'));
    accounts = await AccountManager.load(join(dir, 'settings.json'), new TokenVault(testCipher(true)));
    await accounts.save({ name: 'QA', baseUrl: service.baseUrl, teamId: 'qa', token: 'qa-token' });
    handlers = mainHandlers(accounts);
    ids.gtube = (await service.inject(rawMail({ from: 'Bulk <bulk@spam.test>', to: 'qa@acme.test', subject: 'Test', text: `This is the GTUBE:\r\n${GTUBE}\r\n` })))[0]!;
    ids.clean = (
      await service.inject(
        rawMail({ from: 'MyApp <no-reply@myapp.test>', to: 'qa@acme.test', subject: 'Confirm your email address', text: 'Hello Ada,\r\n\r\nYour verification code is 739204. It expires in 10 minutes.\r\n\r\nThe MyApp team\r\n' }),
      )
    )[0]!;
  }, 90_000);
  afterAll(async () => {
    handlers?.dispose();
    await service?.close();
    await spamd?.stop();
  });

  const score = async (id: string) => dispatch(handlers, 'checkSpam', { id });

  it('says plainly that spam scores are off until spamd is set', async () => {
    await accounts.updateSettings({ spamd: '' });
    expect(await score(ids.gtube!)).toMatchObject({ ok: false, error: { kind: 'unsupported', message: expect.stringContaining('Spam scores are off') } });
  });

  it('recognises GTUBE: spam, its rule with its points, first', async () => {
    await accounts.updateSettings({ spamd: spamd.address });
    const answer = await score(ids.gtube!);
    expect(answer.ok).toBe(true);
    const report = (answer as { value: { isSpam: boolean; score: number; threshold: number; rules: { name: string; points: number }[] } }).value;
    expect(report.isSpam).toBe(true);
    expect(report.score).toBeGreaterThanOrEqual(report.threshold);
    expect(report.rules[0]).toMatchObject({ name: 'GTUBE' });
    expect(report.rules[0]!.points).toBeGreaterThanOrEqual(1000);
  }, 30_000);

  it('a plain transactional email scores under the threshold', async () => {
    await accounts.updateSettings({ spamd: spamd.address });
    const answer = await score(ids.clean!);
    const report = (answer as { value: { isSpam: boolean; score: number; threshold: number; rules: { name: string }[] } }).value;
    expect(report.isSpam).toBe(false);
    expect(report.score).toBeLessThan(report.threshold);
    expect(report.rules.map((r) => r.name)).not.toContain('GTUBE');
  }, 30_000);

  it("npm run catch --spamd answers mailpit-api's spamAssassinCheck with spamd's own verdict", async () => {
    const catcher = await startCatch({ args: ['--spamd', spamd.address] });
    const mail = nodemailer.createTransport({ host: '127.0.0.1', port: catcher.smtpPort, secure: false, ignoreTLS: true });
    try {
      const mailpit = new MailpitClient(catcher.api, { auth: { username: 'ci', password: catcher.token } });
      expect((await mailpit.getConfiguration()).SpamAssassin).toBe(true);
      await mail.sendMail({ from: 'Bulk <bulk@spam.test>', to: 'qa@acme.test', subject: 'Test', text: `This is the GTUBE:\n${GTUBE}\n` });
      const spam = await mailpit.spamAssassinCheck('latest');
      expect(spam).toMatchObject({ IsSpam: true, Error: '' });
      expect(spam.Score).toBeGreaterThanOrEqual(1000);
      expect(spam.Rules?.[0]).toMatchObject({ Name: 'GTUBE' });
      await mail.sendMail({ from: 'MyApp <no-reply@myapp.test>', to: 'qa@acme.test', subject: 'Confirm your email address', text: 'Hello Ada,\n\nYour verification code is 739204.\n\nThe MyApp team\n' });
      const clean = await mailpit.spamAssassinCheck('latest');
      expect(clean.IsSpam).toBe(false);
      expect((clean.Rules ?? []).map((rule) => rule.Name)).not.toContain('GTUBE');
    } finally {
      mail.close();
      await catcher.stop();
    }
  }, 60_000);

  it("This computer's sa-check asks the spamd of the app's Settings, set without a restart", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'inbox-desk-spam-catcher-'));
    const own = await AccountManager.load(join(dir, 'settings.json'), new TokenVault(testCipher(true)));
    const settings = await own.updateCatcher({ enabled: true, port: 0, apiPort: 0 });
    const catcher = new Catcher({ workerPath: resolve('src/main/local-service-worker.ts'), dataDir: join(dir, 'catcher') }, settings, false);
    catcher.setSpamd(own.settings.spamd);
    await catcher.apply(settings, null, false);
    const made = mainHandlers(own, { mail: { catcher } });
    const mail = nodemailer.createTransport({ host: '127.0.0.1', port: catcher.state.smtp!.port, secure: false, ignoreTLS: true });
    try {
      const api = (catcher.state.api as { url: string }).url;
      const token = (await readFile(join(dir, 'catcher', 'mail', 'api-token'), 'utf8')).trim();
      await mail.sendMail({ from: 'Bulk <bulk@spam.test>', to: 'qa@acme.test', subject: 'Test', text: `This is the GTUBE:\n${GTUBE}\n` });
      const off = await fetch(`${api}/api/v1/message/latest/sa-check`, { headers: { Authorization: `Bearer ${token}` } });
      expect(off.status).toBe(404);
      await made.table.updateSettings({ spamd: spamd.address });
      const spam = await new MailpitClient(api, { auth: { username: 'app', password: token } }).spamAssassinCheck('latest');
      expect(spam).toMatchObject({ IsSpam: true, Error: '' });
      expect(spam.Rules?.[0]).toMatchObject({ Name: 'GTUBE' });
    } finally {
      mail.close();
      made.dispose();
      await catcher.stop();
    }
  }, 60_000);

  it('no spamd at the address: one plain sentence', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise((resolve) => probe.close(resolve));
    await accounts.updateSettings({ spamd: `127.0.0.1:${port}` });
    expect(await score(ids.clean!)).toMatchObject({ ok: false, error: { kind: 'network', message: `No spamd answers at 127.0.0.1:${port}. Install SpamAssassin’s spamd and start it (Debian: apt install spamd), or give its address (Settings in the app; --spamd for npm run catch).` } });
  });
});
