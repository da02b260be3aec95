/**
 * A self-signed certificate for the catcher's STARTTLS and TLS ports, made
 * once per install: an EC P-256 key from Node's crypto and an X.509 v3
 * certificate DER-encoded here (RFC 5280), signed ECDSA-SHA256, for
 * localhost and 127.0.0.1 (and whatever names the caller adds). A library
 * for this (selfsigned) brings fourteen packages and 9 MB into the app for
 * what is some eighty lines of ASN.1; Node's own X509Certificate and real
 * TLS clients check what this writes (test/integration/self-signed.test.ts).
 */
import { createSign, generateKeyPairSync, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';

// ---- DER (X.690), the few types a certificate needs ---------------------

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, content: Buffer) => Buffer.concat([Buffer.from([tag]), length(content.length), content]);
const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const explicit = (n: number, content: Buffer) => tlv(0xa0 | n, content);
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
const octets = (content: Buffer) => tlv(0x04, content);
const bits = (content: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), content]));
const bool = (value: boolean) => tlv(0x01, Buffer.from([value ? 0xff : 0]));

function integer(bytes: Buffer): Buffer {
  // DER is minimal: no leading zero byte unless the next one's top bit needs it
  // (a random serial starting 00 12… was "illegal padding" to OpenSSL, one certificate in 256).
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && !(bytes[start + 1]! & 0x80)) start += 1;
  const minimal = bytes.subarray(start);
  // Positive: a leading 1 bit gets a zero byte before it.
  return tlv(0x02, minimal[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}

function oid(dotted: string): Buffer {
  const [a = 0, b = 0, ...rest] = dotted.split('.').map(Number);
  const out = [40 * a + b];
  for (const arc of rest) {
    const chunk: number[] = [];
    for (let v = arc; ; v = Math.floor(v / 128)) {
      chunk.unshift((v % 128) | (chunk.length > 0 ? 0x80 : 0));
      if (v < 128) break;
    }
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime through 2049, GeneralizedTime after (RFC 5280 §4.1.2.5). */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}

const ECDSA_WITH_SHA256 = sequence(oid('1.2.840.10045.4.3.2'));
const name = (commonName: string) => sequence(set(sequence(oid('2.5.4.3'), utf8(commonName))));

export interface SelfSigned {
  /** PEM: the certificate and its PKCS#8 private key. */
  cert: string;
  key: string;
}

/** A certificate valid from now for `days`, for the given host names and addresses (localhost and 127.0.0.1 always). */
export function selfSignedCertificate(options: { commonName?: string; hosts?: string[]; days?: number; now?: Date } = {}): SelfSigned {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const now = options.now ?? new Date();
  const notAfter = new Date(now.getTime() + (options.days ?? 3650) * 86_400_000);
  const hosts = [...new Set(['localhost', '127.0.0.1', '::1', ...(options.hosts ?? [])])];
  const altNames = hosts.map((host) => {
    const family = isIP(host);
    if (family === 0) return tlv(0x82, Buffer.from(host, 'ascii'));
    const bytes = family === 4 ? Buffer.from(host.split('.').map(Number)) : ipv6Bytes(host);
    return tlv(0x87, bytes);
  });
  const extensions = explicit(
    3,
    sequence(
      // basicConstraints: not a CA (critical).
      sequence(oid('2.5.29.19'), bool(true), octets(sequence())),
      // keyUsage: digitalSignature (critical).
      sequence(oid('2.5.29.15'), bool(true), octets(tlv(0x03, Buffer.from([7, 0x80])))),
      // extKeyUsage: serverAuth.
      sequence(oid('2.5.29.37'), octets(sequence(oid('1.3.6.1.5.5.7.3.1')))),
      // subjectAltName: what clients check the name against.
      sequence(oid('2.5.29.17'), octets(sequence(...altNames))),
    ),
  );
  const subject = name(options.commonName ?? 'Inbox Desk on this computer');
  const serial = randomBytes(16);
  // Positive and never zero-led (RFC 5280: a positive serial of at most 20 octets).
  serial[0] = (serial[0]! & 0x7f) || 0x01;
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    ECDSA_WITH_SHA256,
    subject,
    sequence(time(now), time(notAfter)),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
    extensions,
  );
  const signature = createSign('sha256').update(tbs).sign(privateKey);
  const der = sequence(tbs, ECDSA_WITH_SHA256, bits(signature));
  const pem = (label: string, bytes: Buffer) => `-----BEGIN ${label}-----\n${bytes.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END ${label}-----\n`;
  return { cert: pem('CERTIFICATE', der), key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}

function ipv6Bytes(address: string): Buffer {
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const all = address.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return Buffer.from(all.flatMap((group) => [parseInt(group, 16) >> 8, parseInt(group, 16) & 0xff]));
}
