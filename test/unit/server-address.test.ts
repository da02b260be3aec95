import { describe, expect, it } from 'vitest';
import { parseServerAddress } from '../../src/shared/domain/server-address.ts';

describe('what people paste as a server address', () => {
  it('takes the full address the service prints, with the team in it', () => {
    expect(parseServerAddress('http://127.0.0.1:8025/api/teams/demo')).toEqual({ ok: true, baseUrl: 'http://127.0.0.1:8025', teamId: 'demo', flavor: 'service-v1' });
    expect(parseServerAddress(' https://mail.acme.test/inbox/api/teams/acme%20ops/emails?page=2 ')).toEqual({
      ok: true, baseUrl: 'https://mail.acme.test/inbox', teamId: 'acme ops', flavor: 'service-v1',
    });
  });

  it('takes a base, or a base with /api, without guessing the kind of server', () => {
    expect(parseServerAddress('https://mail.acme.test/')).toEqual({ ok: true, baseUrl: 'https://mail.acme.test' });
    expect(parseServerAddress('https://mail.acme.test/api/')).toEqual({ ok: true, baseUrl: 'https://mail.acme.test' });
    expect(parseServerAddress('https://mail.acme.test/api/emails')).toEqual({ ok: true, baseUrl: 'https://mail.acme.test' });
  });

  it('offers https:// when no scheme was typed, and http:// only for this machine', () => {
    expect(parseServerAddress('mail.acme.test')).toEqual({ ok: true, baseUrl: 'https://mail.acme.test', addedScheme: 'https' });
    expect(parseServerAddress('localhost:8025/api/teams/t')).toMatchObject({ baseUrl: 'http://localhost:8025', teamId: 't', addedScheme: 'http' });
    expect(parseServerAddress('127.0.0.1:8025')).toMatchObject({ baseUrl: 'http://127.0.0.1:8025', addedScheme: 'http' });
  });

  it('says in words what is wrong', () => {
    expect(parseServerAddress('')).toEqual({ ok: false, message: expect.stringContaining('Enter the server address') });
    expect(parseServerAddress('ftp://files.acme.test')).toEqual({ ok: false, message: expect.stringContaining('https://') });
    expect(parseServerAddress('javascript:alert(1)')).toMatchObject({ ok: false });
    expect(parseServerAddress('https://user:pass@mail.acme.test')).toEqual({ ok: false, message: expect.stringContaining('token in its own field') });
    expect(parseServerAddress('https://exa mple')).toMatchObject({ ok: false });
  });
});
