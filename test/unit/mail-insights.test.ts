/**
 * Codes, call-to-action links and sender checks on a corpus of
 * transactional emails shaped like real ones (several senders' layouts,
 * several languages), each answer written by hand.
 */
import { describe, expect, it } from 'vitest';
import { findActionLink, findCode, linksOfText, type EmailLink } from '../../src/shared/domain/mail-insights.ts';
import { senderChecks, type Header } from '../../src/shared/domain/sender-checks.ts';

const CODES: { name: string; subject: string; text: string; code: string | null }[] = [
  { name: 'GitHub-style device code', subject: '[GitHub] Please verify your device', text: 'Hey octocat!\nA sign in attempt requires further verification.\nVerification code: 482913\nIf you did not attempt to sign in, change your password.', code: '482913' },
  { name: 'code in the subject', subject: '591 284 is your Instagram code', text: 'Someone tried to log in. Use the code in the subject.', code: '591284' },
  { name: 'letters and digits', subject: 'Confirm your email', text: 'Thanks for signing up to Acme.\n\nYour confirmation code is:\n\n  K7Q2ZP\n\nIt expires in 10 minutes.', code: 'K7Q2ZP' },
  { name: 'German', subject: 'Ihr Bestätigungscode', text: 'Hallo,\nIhr Bestätigungscode lautet 773 041.\nDer Code ist 15 Minuten gültig.', code: '773041' },
  { name: 'Spanish', subject: 'Código de verificación', text: 'Hola,\nTu código de verificación es 604117. No lo compartas con nadie.', code: '604117' },
  { name: 'French', subject: 'Votre code', text: 'Bonjour,\nVoici votre code de vérification : 31 88 20 ? Non : 318820.', code: '318820' },
  { name: 'code before its word', subject: 'Sign in to Slack', text: '118-922 is your Slack confirmation code. Enter it in the app.', code: '118922' },
  { name: 'a year and a price are not codes', subject: 'Your receipt', text: 'Order #A-100 placed 12 March 2026 for $1499. Thanks for your order, promo code not applied.', code: null },
  { name: 'no code at all', subject: 'Welcome to Acme', text: 'We are glad you are here. Reply to this email if you need help.', code: null },
  { name: 'an OTP in a sentence', subject: 'Login attempt', text: 'Use OTP 90211547 to finish logging in. Do not share this OTP.', code: '90211547' },
];

const LINKS: { name: string; subject: string; links: EmailLink[]; expected: string | null }[] = [
  {
    name: 'password reset among footer links',
    subject: 'Reset your password',
    links: [
      { url: 'https://acme.test/browser/123', text: 'View in browser' },
      { url: 'https://acme.test/reset?token=abc', text: 'Reset your password' },
      { url: 'https://acme.test/help', text: 'Help centre' },
      { url: 'https://acme.test/unsubscribe?u=1', text: 'Unsubscribe' },
    ],
    expected: 'https://acme.test/reset?token=abc',
  },
  { name: 'a button that says confirm', subject: 'Welcome to Acme', links: [{ url: 'https://twitter.com/acme', text: 'Twitter' }, { url: 'https://acme.test/c/xyz', text: 'Confirm my email address' }], expected: 'https://acme.test/c/xyz' },
  { name: 'a magic link whose text says nothing', subject: 'Your sign-in link', links: [{ url: 'https://acme.test/auth/magic?t=1', text: 'Click here' }, { url: 'https://acme.test/privacy', text: 'Privacy' }], expected: 'https://acme.test/auth/magic?t=1' },
  { name: 'German', subject: 'Bitte bestätigen Sie Ihre E-Mail-Adresse', links: [{ url: 'https://shop.test/datenschutz', text: 'Datenschutz' }, { url: 'https://shop.test/k/1', text: 'E-Mail-Adresse bestätigen' }], expected: 'https://shop.test/k/1' },
  { name: 'Spanish', subject: 'Verifica tu cuenta', links: [{ url: 'https://app.test/v?x=2', text: 'Verificar mi cuenta' }], expected: 'https://app.test/v?x=2' },
  { name: 'only furniture', subject: 'Confirm your subscription', links: [{ url: 'https://news.test/unsubscribe', text: 'Unsubscribe' }, { url: 'mailto:help@news.test', text: 'Contact us' }], expected: null },
];

describe('codes and links (issue 23)', () => {
  for (const mail of CODES) {
    it(`finds the code: ${mail.name}`, () => {
      expect(findCode(mail.subject, mail.text)?.code ?? null).toBe(mail.code);
    });
  }
  for (const mail of LINKS) {
    it(`finds the call to action: ${mail.name}`, () => {
      // The body's text holds what its links say, as an HTML body's text does.
      expect(findActionLink(mail.subject, mail.links.map((l) => l.text).join('\n'), mail.links)?.url ?? null).toBe(mail.expected);
    });
  }
  it('reads links out of a text body with their line as label', () => {
    expect(linksOfText('Reset it here: https://acme.test/reset?t=9.\nUnsubscribe: https://acme.test/u')).toEqual([
      { url: 'https://acme.test/reset?t=9', text: 'Reset it here:' },
      { url: 'https://acme.test/u', text: 'Unsubscribe:' },
    ]);
    expect(findActionLink('Password reset', '', linksOfText('Reset it here: https://acme.test/reset?t=9.\nUnsubscribe: https://acme.test/u'))?.url).toBe('https://acme.test/reset?t=9');
  });
});

describe('sender checks (issue 23)', () => {
  const h = (name: string, value: string): Header => ({ name, value });
  it('passes a well-configured bulk sender', () => {
    const checks = senderChecks(
      [
        h('Authentication-Results', 'mx.google.test; dkim=pass header.i=@acme.test; spf=pass smtp.mailfrom=acme.test; dmarc=pass (p=REJECT) header.from=acme.test'),
        h('List-Unsubscribe', '<https://acme.test/u/1>, <mailto:unsub@acme.test>'),
        h('List-Unsubscribe-Post', 'List-Unsubscribe=One-Click'),
        h('Message-ID', '<abc.123@acme.test>'),
        h('Date', 'Mon, 02 Nov 2026 10:00:00 +0000'),
        h('Return-Path', '<bounce@acme.test>'),
      ],
      { hasHtml: true, hasText: true },
    );
    expect(checks.map((c) => [c.name, c.verdict])).toEqual([
      ['SPF', 'pass'], ['DKIM', 'pass'], ['DMARC', 'pass'], ['List-Unsubscribe', 'pass'], ['One-click unsubscribe (RFC 8058)', 'pass'],
      ['Message-ID', 'pass'], ['Date', 'pass'], ['Return-Path', 'pass'], ['Text part', 'pass'],
    ]);
  });
  it('fails and warns what is wrong or missing', () => {
    const checks = Object.fromEntries(
      senderChecks(
        [h('Received-SPF', 'softfail (domain of x does not designate 1.2.3.4)'), h('Authentication-Results', 'mx; dkim=fail'), h('List-Unsubscribe', 'https://acme.test/u'), h('List-Unsubscribe-Post', 'List-Unsubscribe=One-Click'), h('Message-ID', 'no-angle-brackets'), h('Date', 'yesterday')],
        { hasHtml: true, hasText: false },
      ).map((c) => [c.name, c.verdict]),
    );
    expect(checks).toEqual({
      SPF: 'fail', DKIM: 'fail', DMARC: 'warn', 'List-Unsubscribe': 'fail', 'One-click unsubscribe (RFC 8058)': 'fail',
      'Message-ID': 'warn', Date: 'warn', 'Return-Path': 'warn', 'Text part': 'warn',
    });
    expect(senderChecks([], { hasHtml: false, hasText: true }).find((c) => c.name === 'Message-ID')?.verdict).toBe('fail');
  });
});

describe('reading an HTML body without a DOM (issue 23)', () => {
  it('finds the text and the links, skipping styles and scripts', async () => {
    const { htmlTextAndLinks } = await import('../../src/shared/domain/mail-insights.ts');
    const read = htmlTextAndLinks('<style>a{color:red}</style><p>Your code is <b>482&#57;13</b>.</p><a class="btn" href="https://acme.test/r?a=1&amp;b=2">Reset <span>password</span></a><script>x()</script><a href=\'/x\'>rel</a>');
    expect(read.text).toContain('Your code is 482913');
    expect(read.text).not.toContain('color');
    expect(read.links).toEqual([
      { url: 'https://acme.test/r?a=1&b=2', text: 'Reset password', before: 'Your code is 482913.' },
      { url: '/x', text: 'rel', before: 'Reset password' },
    ]);
  });
  it('stays linear on hostile bodies (deep nesting, unclosed links): four times the input, not sixteen times the time', async () => {
    const { htmlTextAndLinks } = await import('../../src/shared/domain/mail-insights.ts');
    const hostile: ((n: number) => string)[] = [
      (n) => '<b>x'.repeat(n),
      (n) => '<a href="https://x.test">'.repeat(n),
      (n) => '<div></x>'.repeat(n),
      (n) => `<style>${'a'.repeat(n * 6)}`,
      (n) => '<style></style>'.repeat(n),
    ];
    // The best of five runs: a busy machine slows a run, never speeds one up.
    const best = (html: string) => {
      let fastest = Infinity;
      for (let i = 0; i < 5; i++) {
        const began = performance.now();
        htmlTextAndLinks(html);
        fastest = Math.min(fastest, performance.now() - began);
      }
      return fastest;
    };
    for (const make of hostile) {
      const small = best(make(12_500));
      const large = best(make(50_000));
      // Linear is 4x; quadratic would be 16x. The 2 ms covers timer grain on tiny times.
      expect(large, make(3).slice(0, 30)).toBeLessThan(small * 8 + 2);
    }
  });
});
