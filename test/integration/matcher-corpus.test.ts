import { describe, expect, it } from 'vitest';
import { matchAutomation } from '../../src/shared/domain/automation-match.ts';
import type { AutomationInput } from '../../src/shared/domain/automation.ts';
import { FLAVOR_RECORDS, type FlavorName } from '../../src/shared/flavors/index.ts';
import { startReferenceService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';

/**
 * Rules against a corpus whose answers were worked out by hand: the
 * reference service's emails_received after the corpus arrives, and the
 * matcher the preview and main use, must each equal the hand count (neither
 * is checked against the other). Sender and inbox are addresses on the API
 * document's service and regular expressions on MailCare (issue 20).
 */
const CORPUS = [
  { subject: 'Invoice 1001', from: 'billing@vendor.test', to: 'billing@acme.test', attachment: true },
  { subject: 'invoice 1002 (reminder)', from: 'billing@vendor.test', to: 'billing@acme.test' },
  { subject: 'Re: Invoice 1001', from: 'ann@acme.test', to: 'billing@acme.test' },
  { subject: 'Lunch?', from: 'bob@example.test', to: 'team@acme.test' },
  { subject: 'Weekly report', from: 'bot@example.test', to: 'team@acme.test', attachment: true },
  { subject: 'ALERT: disk 91%', from: 'monitor@ops.test', to: 'ops@acme.test' },
  { subject: '', from: 'nobody@example.test', to: 'support@acme.test' },
  { subject: 'Order 55 shipped', from: 'bot+orders@shop.test', to: 'support+vip@inbox.test' },
  { subject: 'Hello', from: 'alice@acme.test', to: 'team@acme.test' },
  { subject: 'Hello again', from: 'malice@acme.test', to: 'team@acme.test' },
];

/** Each rule with the number of corpus emails it must catch (worked out by hand). */
const rules: Record<FlavorName, (Partial<AutomationInput> & { catches: number })[]> = {
  'service-v1': [
    { title: 'Invoices', subject: '^invoice', catches: 2 },
    { title: 'From billing', sender: 'billing@vendor.test', catches: 2 },
    { title: 'Team with files', inbox: 'team@acme.test', has_attachments: true, catches: 1 },
    { title: 'Alerts', subject: 'alert|disk \\d+%', catches: 1 },
    { title: 'Nothing', subject: '^zzz$', catches: 0 },
    // Addresses, as the API document defines them: + is a letter, case does not matter, malice is not alice.
    { title: 'Rule from an email (R)', sender: 'bot+orders@shop.test', inbox: 'support+vip@inbox.test', catches: 1 },
    { title: 'Alice only', sender: 'Alice@Acme.test', catches: 1 },
  ],
  mailcare: [
    { title: 'Invoices', subject: 'invoice \\d+', catches: 3 },
    { title: 'Vendor', sender: '@vendor\\.test$', catches: 2 },
    { title: 'Acme inboxes', inbox: '^(billing|ops)@acme', catches: 4 },
    { title: 'Files', has_attachments: true, catches: 2 },
    // Regular expressions, as MailCare matches them: alice@ is also in malice@.
    { title: 'Alice-ish', sender: 'alice@', catches: 2 },
    { title: 'Escaped plus', sender: '^bot\\+orders@shop\\.test$', catches: 1 },
  ],
};

describe.each(['service-v1', 'mailcare'] as const)('the shared matcher and the %s service agree', (flavor) => {
  it('on every rule and every email of the corpus', async () => {
    const service = await startReferenceService({ teams: [{ id: 'default', token: 'corpus-token' }], flavor });
    try {
      const team = service.service.team('default');
      const stored = rules[flavor].map((rule) =>
        team.createAutomation({
          title: rule.title!, sender: rule.sender ?? null, inbox: rule.inbox ?? null, subject: rule.subject ?? null,
          has_attachments: rule.has_attachments ?? false, action_url: null, action_email: null, action_secret_token: null,
          action_delete_email: false, payload_format: 'json',
        }),
      );
      for (const mail of CORPUS) {
        await service.inject(rawMail({ subject: mail.subject, from: mail.from, to: mail.to, text: 'x', ...(mail.attachment ? { attachment: { name: 'a.txt', type: 'text/plain', content: 'a' } } : {}) }));
      }
      await service.service.settled();
      const traits = FLAVOR_RECORDS[flavor];
      for (const automation of stored) {
        const handCount = rules[flavor].find((r) => r.title === automation.title)!.catches;
        expect(automation.emails_received, `service: ${automation.title}`).toBe(handCount);
        const previewed = team.query().filter(
          (e) => matchAutomation(automation, { subject: e.subject, sender: e.sender.email, inbox: e.inbox.email, attachmentCount: e.attachments.length }, traits.addressCriteria) !== null,
        ).length;
        expect(previewed, `matcher: ${automation.title}`).toBe(handCount);
      }
      expect(stored.some((a) => a.emails_received > 0)).toBe(true);
    } finally {
      await service.close();
    }
  });
});
