import { describe, expect, it } from 'vitest';
import { internationalizedHost, linkMismatch, linkQuestion } from '../../../src/renderer/src/features/message/link-check.ts';

describe('links that show one site and go to another', () => {
  it('are caught', () => {
    expect(linkMismatch('https://www.paypal.com/signin', 'https://paypal.com.account-verify.example/login')).toEqual({ shown: 'www.paypal.com', actual: 'paypal.com.account-verify.example' });
    expect(linkMismatch('bank.co.uk', 'https://bank.co.uk.evil.test/')).toMatchObject({ shown: 'bank.co.uk' });
    expect(linkMismatch('Go to acme.test now', 'http://phish.test/acme')).toEqual({ shown: 'acme.test', actual: 'phish.test' });
  });

  it('leave honest links alone', () => {
    expect(linkMismatch('www.acme.test', 'https://acme.test/x')).toBeNull();
    expect(linkMismatch('docs.acme.test/guide', 'https://acme.test/guide')).toBeNull();
    expect(linkMismatch('shop.bank.co.uk', 'https://bank.co.uk/')).toBeNull();
    expect(linkMismatch('Read more', 'https://anything.test/')).toBeNull();
    expect(linkMismatch('version 1.2', 'https://x.test/')).toBeNull();
    expect(linkMismatch('mail us', 'mailto:a@b.test')).toBeNull();
  });
});

describe('links to internationalized names (whole-script lookalikes)', () => {
  it('ask first, naming the punycode host, even when the text agrees', () => {
    // All Cyrillic: а р р ӏ е. The text is the very same string as the host.
    expect(internationalizedHost('https://аррӏе.com/')).toBe('xn--80ak6aa92e.com');
    expect(linkQuestion('аррӏе.com', 'https://аррӏе.com/')).toContain('goes to xn--80ak6aa92e.com');
    expect(linkQuestion('https://аррӏе.com', 'https://xn--80ak6aa92e.com/')).toContain('xn--80ak6aa92e.com');
    expect(internationalizedHost('https://shop.xn--mnchen-3ya.de/')).toBe('shop.xn--mnchen-3ya.de');
  });

  it('leave ASCII names and other schemes alone', () => {
    expect(internationalizedHost('https://apple.com/')).toBeNull();
    expect(linkQuestion('apple.com', 'https://apple.com/')).toBeNull();
    expect(internationalizedHost('mailto:a@аррӏе.com')).toBeNull();
  });
});
