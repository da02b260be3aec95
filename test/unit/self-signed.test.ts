/**
 * The catcher's certificate as OpenSSL reads it (Node's X509Certificate and a
 * TLS context): hundreds of fresh ones, since a random serial is where a DER
 * slip hides (a zero-led serial was "illegal padding" one time in 256).
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import { createSecureContext } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../src/server/self-signed.ts';

describe('the self-signed certificate', () => {
  it('parses, 1,000 times over, with its serial, its names and its key', () => {
    for (let i = 0; i < 1000; i++) {
      const { cert, key } = selfSignedCertificate({ hosts: ['catcher.lan'] });
      const parsed = new X509Certificate(cert);
      // Parsing it at all is the DER check (OpenSSL refuses a zero-led integer); the serial is 16 octets at most.
      expect(parsed.serialNumber).toMatch(/^[0-9A-F]{2,32}$/);
      expect(parsed.checkPrivateKey(createPrivateKey(key))).toBe(true);
      if (i % 100 === 0) {
        expect(parsed.subjectAltName).toContain('DNS:catcher.lan');
        expect(parsed.subjectAltName).toContain('IP Address:127.0.0.1');
        expect(() => createSecureContext({ cert, key })).not.toThrow();
      }
    }
  });
});
