/**
 * No request and no incoming message holds the reference service's event
 * loop more than 50 ms (issue 19): the worst pattern it accepts meets the
 * worst subject it accepts, for every recipient of a message, while a probe
 * timer and a stream of list requests watch how long the loop is held.
 * Patterns and filters past the limits are refused with a clear 422.
 */
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { startParsePool, type ParsePool } from '../../src/server/parse-pool.ts';
import { SMTP_MAX_RECIPIENTS } from '../../src/server/smtp.ts';
import { WILDCARD_LIMIT } from '../../src/server/wildcard.ts';
import { MATCH_CHARS, PROGRAM_LIMIT } from '../../src/shared/domain/pattern.ts';
import { rawMail } from '../support/mail.ts';

const TOKEN = 'stall-token';
let service: RunningService | null = null;
let pool: ParsePool | null = null;

afterEach(async () => {
  await service?.close();
  await pool?.close();
  service = null;
  pool = null;
});

const start = async () => {
  // As `npm run server` runs it: MIME parsing on its own thread.
  pool = startParsePool();
  const parser = pool;
  service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }], smtpPort: 0, rateLimit: 0, parse: (raw) => parser.parse(raw) });
};
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${service!.baseUrl}/api/teams/t/${path}`, {
    ...init,
    headers: { Authorization: `Bearer ${TOKEN}`, Accept: 'application/json', 'Content-Type': 'application/json', ...(init.headers ?? {}) },
  });

/**
 * The longest the service's event loop was held while `work` ran: between two
 * turns of a 1 ms timer, the CPU time this thread itself spent (its own work,
 * not a wait for the other core on a loaded machine, which wall time would count).
 */
async function longestHold(work: () => Promise<void>): Promise<number> {
  const cpu = () => {
    const { user, system } = process.threadCpuUsage();
    return (user + system) / 1000;
  };
  let last = cpu();
  let longest = 0;
  const probe = setInterval(() => {
    const now = cpu();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    await work();
  } finally {
    clearInterval(probe);
  }
  return longest;
}

describe('the service never stalls (issue 19)', () => {
  it('refuses patterns too complex to match quickly, with the reason, in a 422', async () => {
    await start();
    for (const subject of ['(a|aa){1000}', '[a-z]{600}', '(?:a*b*c*d*e*f*g*h*){100}']) {
      const response = await api('automations', { method: 'POST', body: JSON.stringify({ title: 'Costly', subject }) });
      expect(response.status, subject).toBe(422);
      const body = (await response.json()) as { errors: { subject: string[] } };
      expect(body.errors.subject[0]).toMatch(new RegExp(`too complex.*at most ${PROGRAM_LIMIT}`));
    }
    // An ordinary rule is fine.
    expect((await api('automations', { method: 'POST', body: JSON.stringify({ title: 'Invoices', subject: '^(invoice|receipt)\\s+#?\\d+' }) })).status).toBe(201);
  });

  it('the worst accepted rules against the worst subject, for every recipient: the loop is never held 50 ms', async () => {
    await start();
    // Near the program limit, and each one distinct: nothing is shared between rules.
    const rules = Array.from({ length: 12 }, (_, i) => `[a-z]{${480 + i}}x`);
    for (const [i, subject] of rules.entries()) {
      const response = await api('automations', { method: 'POST', body: JSON.stringify({ title: `Worst ${i}`, subject, action_url: 'http://127.0.0.1:9/never' }) });
      expect(response.status, subject).toBe(201);
    }
    const recipients = Array.from({ length: SMTP_MAX_RECIPIENTS }, (_, i) => `box${i}@inbox.test`);
    const subject = 'a'.repeat(MATCH_CHARS * 3);
    const transport = nodemailer.createTransport({ host: '127.0.0.1', port: service!.smtpPort!, secure: false, ignoreTLS: true });
    const latencies: number[] = [];
    const held = await longestHold(async () => {
      let sending = true;
      const requests = (async () => {
        while (sending) {
          const began = performance.now();
          expect((await api('emails?limit=25')).status).toBe(200);
          latencies.push(performance.now() - began);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      await transport.sendMail({ from: 'load@test.example', to: recipients, subject, text: 'body' });
      await service!.service.settled();
      sending = false;
      await requests;
    });
    transport.close();
    expect(service!.service.team('t').count()).toBe(SMTP_MAX_RECIPIENTS);
    // Every rule was matched for every email (none matches: no "x").
    const listed = ((await (await api('automations')).json()) as { data: { emails_received: number }[] }).data;
    expect(listed.map((a) => a.emails_received)).toEqual(rules.map(() => 0));
    expect(held).toBeLessThan(50);
    expect(Math.max(...latencies)).toBeLessThan(100);
  });

  it('the subject filter is linear, and one longer than the limit is refused', async () => {
    await start();
    for (let i = 0; i < 50; i++) await service!.inject(rawMail({ subject: 'a'.repeat(5000), to: `box${i}@inbox.test` }));
    const worst = `*${'a'.repeat(WILDCARD_LIMIT - 2)}b`;
    const began = performance.now();
    const response = await api(`emails?subject=${encodeURIComponent(worst)}`);
    const ms = performance.now() - began;
    expect(response.status).toBe(200);
    expect(((await response.json()) as { meta: { total: number } }).meta.total).toBe(0);
    expect(ms).toBeLessThan(50);
    const tooLong = await api(`emails?subject=${encodeURIComponent(`*${'a'.repeat(3000)}b`)}`);
    expect(tooLong.status).toBe(422);
    expect(((await tooLong.json()) as { errors: { subject: string[] } }).errors.subject[0]).toContain(`${WILDCARD_LIMIT} characters`);
    // And a star still means what it meant.
    const all = await api(`emails?subject=${encodeURIComponent('a*a')}&limit=100`);
    expect(((await all.json()) as { meta: { total: number } }).meta.total).toBe(50);
  });
});
