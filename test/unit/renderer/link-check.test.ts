import { describe, expect, it } from 'vitest';
import { linkMismatch } from '../../../src/renderer/src/features/message/link-check.ts';

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
