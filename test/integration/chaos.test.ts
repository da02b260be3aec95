/**
 * Chaos as an app's own SMTP client meets it (issue 40): nodemailer's and
 * Python's smtplib's error handling report exactly the code set for each
 * stage, "the next N" runs out, a slow server makes the client's timeout fire,
 * a connection dropped mid-DATA fails the send, and nothing refused is
 * stored. Set through Mailpit's API by the `mailpit-api` client too.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { MailpitClient } from 'mailpit-api';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { CHAOS_OFF, type ChaosSettings, type ChaosStage } from '../../src/shared/domain/chaos.ts';

const TOKEN = 'chaos-token-0123456789';
let service: RunningService;
beforeAll(async () => {
  service = await startReferenceService({ teams: [{ id: 'this-computer', token: TOKEN }], catcher: true, rateLimit: 0, smtpPort: 0, smtp: { host: '127.0.0.1', auth: 'any' } });
});
afterAll(() => service.close());
beforeEach(() => {
  service.service.chaos.set(CHAOS_OFF);
  service.service.team('this-computer').deleteAll();
});

const stored = () => service.service.team('this-computer').count();
const only = (stage: ChaosStage, code: number, how: { probability?: number; next?: number } = { probability: 100 }): ChaosSettings => ({
  ...CHAOS_OFF,
  triggers: { [stage]: { code, probability: how.probability ?? 0, next: how.next ?? 0 } },
});

/** nodemailer as an app sends: any login (so AUTH runs), one recipient. Answers the code it reports, or 250. */
async function nodemailerSend(options: { timeoutMs?: number } = {}): Promise<number | string> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: service.smtpPort!,
    secure: false,
    ignoreTLS: true,
    auth: { user: 'app', pass: 'secret' },
    ...(options.timeoutMs ? { greetingTimeout: options.timeoutMs, socketTimeout: options.timeoutMs, connectionTimeout: options.timeoutMs } : {}),
  });
  try {
    await transport.sendMail({ from: 'app@myapp.test', to: 'user@myapp.test', subject: 'Chaos', text: 'hello' });
    return 250;
  } catch (error) {
    const e = error as { responseCode?: number; code?: string };
    return e.responseCode ?? e.code ?? 'failed';
  } finally {
    transport.close();
  }
}

/** smtplib as a Python app sends: the exception it raises, and the code in it. */
async function smtplibSend(): Promise<string> {
  const script = `
import smtplib
try:
    s = smtplib.SMTP('127.0.0.1', ${service.smtpPort}, timeout=5)
    s.login('app', 'secret')
    s.sendmail('app@myapp.test', ['user@myapp.test'], 'Subject: Chaos\\r\\n\\r\\nhello\\r\\n')
    s.quit()
    print('250 sent')
except smtplib.SMTPRecipientsRefused as e:
    print(list(e.recipients.values())[0][0], type(e).__name__)
except (smtplib.SMTPConnectError, smtplib.SMTPAuthenticationError, smtplib.SMTPSenderRefused, smtplib.SMTPDataError, smtplib.SMTPResponseException) as e:
    print(e.smtp_code, type(e).__name__)
`;
  const { stdout } = await promisify(execFile)('python3', ['-c', script]);
  return stdout.trim();
}

describe('chaos, as real clients see it', () => {
  for (const [stage, code, python] of [
    ['connect', 421, 'SMTPConnectError'],
    ['auth', 535, 'SMTPAuthenticationError'],
    ['mailFrom', 451, 'SMTPSenderRefused'],
    ['rcptTo', 550, 'SMTPRecipientsRefused'],
    ['dataEnd', 554, 'SMTPDataError'],
  ] as const) {
    it(`${stage}: both clients report ${code}, and nothing is stored`, async () => {
      service.service.chaos.set(only(stage, code));
      expect(await nodemailerSend()).toBe(code);
      expect(await smtplibSend()).toBe(`${code} ${python}`);
      expect(stored()).toBe(0);
    });
  }

  it('any 4xx or 5xx: 452 at RCPT TO, then the next 2 only, then mail goes through', async () => {
    service.service.chaos.set(only('rcptTo', 452, { next: 2 }));
    expect(await nodemailerSend()).toBe(452);
    expect(await smtplibSend()).toBe('452 SMTPRecipientsRefused');
    expect(await nodemailerSend()).toBe(250);
    expect(stored()).toBe(1);
    expect(service.service.chaos.on).toBe(false);
  });

  it('0% never fires and 100% always does', async () => {
    service.service.chaos.set(only('mailFrom', 451, { probability: 0 }));
    expect(await nodemailerSend()).toBe(250);
    service.service.chaos.set(only('mailFrom', 451, { probability: 100 }));
    expect(await nodemailerSend()).toBe(451);
  });

  it('a slow server makes the client’s timeout fire, and stores nothing', async () => {
    service.service.chaos.set({ ...CHAOS_OFF, delayMs: 1500 });
    const result = await nodemailerSend({ timeoutMs: 400 });
    expect(result).toBe('ETIMEDOUT');
    service.service.chaos.set(CHAOS_OFF);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(stored()).toBe(0);
  });

  it('a connection dropped mid-DATA fails the send, and stores nothing', async () => {
    service.service.chaos.set({ ...CHAOS_OFF, drop: { probability: 0, next: 1 } });
    const result = await nodemailerSend();
    expect(result).not.toBe(250);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stored()).toBe(0);
    expect(await nodemailerSend()).toBe(250);
  });
});

describe("chaos through Mailpit's API (the mailpit-api client)", () => {
  it('sets and reads the triggers in Mailpit’s shape; refuses a code or a probability out of range with why', async () => {
    const mailpit = new MailpitClient(service.baseUrl, { auth: { username: 'any', password: TOKEN } });
    expect((await mailpit.getConfiguration()).ChaosEnabled).toBe(true);
    const set = await mailpit.setChaosTriggers({ Recipient: { ErrorCode: 451, Probability: 100 } });
    expect(set.Recipient).toEqual({ ErrorCode: 451, Probability: 100 });
    expect(set.Sender.Probability).toBe(0);
    expect(await nodemailerSend()).toBe(451);
    expect((await mailpit.getChaosTriggers()).Recipient.ErrorCode).toBe(451);
    await expect(mailpit.setChaosTriggers({ Sender: { ErrorCode: 250, Probability: 10 } })).rejects.toThrow(/400 .*code must be a 4xx or 5xx SMTP answer \(400-599\), not 250/);
    await expect(mailpit.setChaosTriggers({ Sender: { ErrorCode: 451, Probability: 101 } })).rejects.toThrow(/400 .*probability is a percent from 0 to 100, not 101/);
    // Refused writes change nothing.
    expect((await mailpit.getChaosTriggers()).Recipient).toEqual({ ErrorCode: 451, Probability: 100 });
    await mailpit.setChaosTriggers();
    expect(service.service.chaos.on).toBe(false);
    expect(await nodemailerSend()).toBe(250);
  });
});
