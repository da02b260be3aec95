/**
 * The in-place parse of common mail (common-mail.ts) against mailparser, the
 * parser it stands in for: wherever it answers, the answer must be mailparser's.
 * Mail from three sources: what nodemailer builds (what apps send), generated
 * mail around the shapes' edges (a seeded generator: the same 4,000 messages on
 * every run), and every .eml in the repository.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { describe, expect, it } from 'vitest';
import { parseCommonShapes } from '../../src/server/common-mail.ts';
import { parseWithMailparser, type ParsedMessage } from '../../src/server/ingest.ts';

/** The two answers compared; a date mailparser could not read is the time of parsing on both sides. */
function comparable(parsed: ParsedMessage, now: number): unknown {
  const date = parsed.date ? (Math.abs(parsed.date.getTime() - now) < 60_000 ? 'now' : parsed.date.toISOString()) : null;
  return { ...parsed, date };
}

async function expectSame(raw: Buffer, label: string): Promise<boolean> {
  const now = Date.now();
  const fast = parseCommonShapes(raw);
  if (fast === null) return false;
  const oracle = await parseWithMailparser(raw);
  expect(comparable(fast, now), `${label}\n${raw.toString()}`).toEqual(comparable(oracle, now));
  return true;
}

/** A message as nodemailer sends it: its SMTP transport writes every line ending as CRLF. */
async function build(options: ConstructorParameters<typeof MailComposer>[0]): Promise<Buffer> {
  const built = await new MailComposer(options).compile().build();
  return Buffer.from(built.toString('latin1').replace(/\r?\n/g, '\r\n'), 'latin1');
}

describe('common mail parsed in place', () => {
  it('reads what nodemailer sends, as mailparser reads it', async () => {
    const code = 'Your code is 482913. It expires in 10 minutes.';
    const html = '<p>Welcome! Your code is <b>482913</b>.</p><p><a href="https://app.test/verify?t=a1">Verify</a></p>';
    const messages = await Promise.all([
      build({ from: 'App <no-reply@app.test>', to: 'user@example.test', subject: 'Your code', text: code }),
      build({ from: 'no-reply@app.test', to: ['a@example.test', 'B <b@example.test>'], cc: 'c@example.test', subject: 'Sign up', html }),
      build({ from: '"Acme, Inc." <no-reply@acme.test>', to: 'user@example.test', subject: 'Confirm your email ✓', text: code, html }),
      build({ from: 'Zoë Müller <zoe@app.test>', to: 'Jürgen <j@example.test>', subject: 'Grüße — ваш код', text: 'Привет! Код: 4829 13', html: '<p>Привет!</p>' }),
      build({ from: 'app@app.test', to: 'user@example.test', subject: 'Long', text: `${'A very long line that nodemailer folds with quoted-printable soft breaks. '.repeat(20)}\n\nBye`, date: new Date('2026-01-02T03:04:05Z') }),
      build({ from: 'app@app.test', to: 'user@example.test', subject: 'Base64', text: 'x'.repeat(100), textEncoding: 'base64', html: '<p>ü</p>'.repeat(50) }),
    ]);
    for (const [index, raw] of messages.entries()) {
      // Each of these is a common shape: the in-place parse must answer, not leave it to mailparser.
      expect(await expectSame(raw, `nodemailer message ${index}`), `nodemailer message ${index} was not read in place`).toBe(true);
    }
  });

  it('leaves mail with attachments, other charsets and other structures to mailparser', async () => {
    const withAttachment = await build({ from: 'a@app.test', to: 'u@example.test', subject: 'Report', text: 'See attached', attachments: [{ filename: 'r.csv', content: 'a,b\n1,2\n' }] });
    const latin1 = Buffer.from('From: a@app.test\r\nSubject: x\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\ncaf\xe9\r\n', 'latin1');
    const flowed = Buffer.from('From: a@app.test\r\nContent-Type: text/plain; format=flowed\r\n\r\nHello \r\nworld\r\n');
    const mixed = Buffer.from('From: a@app.test\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nhi\r\n--b--\r\n');
    const bareLf = Buffer.from('From: a@app.test\nSubject: x\n\nhello\n');
    const rawUtf8Header = Buffer.from('From: a@app.test\r\nSubject: Grüße\r\n\r\nhi\r\n');
    for (const raw of [withAttachment, latin1, flowed, mixed, bareLf, rawUtf8Header]) expect(parseCommonShapes(raw)).toBeNull();
  });

  it('gives mailparser’s answer on 4,000 generated messages around the shapes’ edges', async () => {
    let seed = 0x2f6b3a1d;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const pick = <T,>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    const maybe = (p: number) => random() < p;

    // Near the plain shapes read without addressparser: a name or address just outside them.
    const nearNames = ['J. Lee', 'Ann_Lee', 'Zoë', 'Ann Lee ', 'Ann\tLee', 'Ann 2'];
    const nearAddresses = ['a_b-c@x-y.test', 'ann@localhost', 'ann@@example.test', 'ann@example.test.', 'ann@.test', 'é@example.test', 'ann@exämple.test', 'a b@example.test'];
    const names = ['', 'Ann', 'Ann Lee', '"Lee, Ann"', '"Ann \\"A\\" Lee"', '=?UTF-8?Q?Zo=C3=AB?=', '=?utf-8?B?0JDQvdC90LA=?=', '=?iso-8859-1?Q?J=FCrgen?=', 'Ann (work)', ' Ann  Lee '];
    const addresses = ['ann@example.test', 'ANN.Lee@Example.TEST', 'a+tag@sub.example.test', 'bad', ''];
    // Left to mailparser: an encoded word in an address, an internationalized domain.
    const rareAddresses = ['x@xn--mller-kva.test', '=?utf-8?Q?a?=@example.test'];
    const address = () => {
      const name = maybe(0.1) ? pick(nearNames) : pick(names);
      const at = maybe(0.04) ? pick(rareAddresses) : maybe(0.1) ? pick(nearAddresses) : pick(addresses);
      if (maybe(0.1)) return `Team: ${at || 'a@b.test'}, b@example.test;`;
      if (!name) return maybe(0.5) ? at : `<${at}>`;
      return `${name}${maybe(0.1) ? '' : ' '}<${at}>${maybe(0.05) ? ' (home)' : ''}`;
    };
    const subjects = ['', 'Hello', '  spaced  ', 'Your code is 123456', '=?UTF-8?Q?Caf=C3=A9_time?=', '=?UTF-8?B?0JLQsNGIINC60L7QtA==?= =?UTF-8?B?OiA0ODI5MTM=?=', '=?utf-8?q?broken', 'a =?UTF-8?Q?=E2=9C=93?= b', 'Folded\r\n over\r\n\tlines', '=?iso-8859-1?Q?caf=E9?='];
    const dates = ['Tue, 1 Jul 2025 10:00:00 +0200', 'Mon, 31 Feb 2025 99:00:00 GMT', 'yesterday', '2025-07-01T10:00:00Z'];
    const types = ['', 'text/plain', 'TEXT/PLAIN; charset=UTF-8', 'text/plain; charset="us-ascii"', 'text/plain; charset=utf8', 'text/html; charset=utf-8', 'text/plain; charset=iso-8859-1', 'text/plain; format=flowed', 'text/plain; name="a.txt"', 'application/json'];
    const encodings = ['', '7bit', '8bit', 'quoted-printable', 'base64', 'BASE64', 'x-uuencode', 'binary'];
    const lines = ['Hello,', '', 'Your code is 482913.', 'é ü — ✓', 'a=b', '=3D=41', 'soft=', '  trailing  ', '--', '-- ', 'From the team', '<p>Hi</p>', 'x'.repeat(120)];

    const body = (encoding: string): string => {
      const text = Array.from({ length: Math.floor(random() * 5) }, () => pick(lines)).join('\r\n') + (maybe(0.7) ? '\r\n' : '');
      if (encoding.toLowerCase() === 'base64') {
        const encoded = Buffer.from(text).toString('base64');
        if (maybe(0.1)) return `${encoded.slice(0, 7)} ${encoded.slice(7)}\r\n`;
        return `${encoded.replace(/.{1,76}/g, '$&\r\n')}`;
      }
      if (encoding === 'quoted-printable' && maybe(0.5)) return text.replace(/[^\x20-\x7e\r\n]/gu, (c) => [...Buffer.from(c)].map((b) => `=${b.toString(16).toUpperCase()}`).join(''));
      return text;
    };
    const leafHeaders = () => {
      const headers: string[] = [];
      const type = pick(types);
      if (type) headers.push(`Content-Type: ${type}`);
      const encoding = pick(encodings);
      if (encoding) headers.push(`Content-Transfer-Encoding: ${encoding}`);
      if (maybe(0.1)) headers.push(`Content-Disposition: ${pick(['inline', 'attachment', 'attachment; filename="x.txt"', 'INLINE'])}`);
      return { headers, encoding };
    };

    let readInPlace = 0;
    const seen = new Set<string>();
    for (let i = 0; i < 4000; i++) {
      const headers: string[] = [];
      if (maybe(0.9)) headers.push(`From: ${address()}`);
      for (let t = Math.floor(random() * 3); t > 0; t--) headers.push(`To: ${address()}${maybe(0.2) ? `, ${address()}` : ''}`);
      if (maybe(0.2)) headers.push(`Cc: ${address()}`);
      if (maybe(0.9)) headers.push(`Subject: ${pick(subjects)}`);
      if (maybe(0.1)) headers.push(`Subject: ${pick(subjects)}`);
      if (maybe(0.5)) headers.push(`Date: ${pick(dates)}`);
      if (maybe(0.5)) headers.push(`Message-ID: <${i}@gen.test>`, 'MIME-Version: 1.0');
      let rest: string;
      if (maybe(0.45)) {
        const boundary = pick(['b1', '----=_Part_1', 'x y', '=_abc']);
        headers.push(`Content-Type: multipart/${maybe(0.9) ? 'alternative' : 'related'}; boundary="${boundary}"`);
        const parts = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
          const leaf = leafHeaders();
          const partHeaders = maybe(0.05) ? [] : leaf.headers;
          return `${partHeaders.join('\r\n')}\r\n\r\n${body(leaf.encoding)}${maybe(0.1) ? '\r\n' : ''}`;
        });
        const padding = maybe(0.05) ? ' ' : '';
        const preamble = maybe(0.3) ? `${pick(['This is a multi-part message.\r\n', '\r\n', '\r\n\r\n'])}${maybe(0.1) ? `--${boundary}x\r\n` : ''}` : '';
        const close = maybe(0.95) ? `\r\n--${boundary}--${padding}${maybe(0.5) ? '\r\n' : ''}${maybe(0.2) ? 'epilogue\r\n' : ''}` : '\r\n';
        rest = `${preamble}${parts.map((part) => `--${boundary}${padding}\r\n${part}`).join('\r\n')}${close}`;
      } else {
        const leaf = leafHeaders();
        headers.push(...leaf.headers);
        rest = body(leaf.encoding);
      }
      const raw = Buffer.from(`${headers.join('\r\n')}\r\n\r\n${rest}`);
      const key = raw.toString('latin1');
      if (seen.has(key)) continue;
      seen.add(key);
      if (await expectSame(raw, `generated message ${i}`)) readInPlace++;
    }
    // The generator reaches the in-place parse often enough for the comparison to mean something.
    expect(readInPlace).toBeGreaterThan(1000);
  });

  it('gives mailparser’s answer on every .eml in the repository', async () => {
    const folders = ['resources/demo/mail', 'test/fixtures/fuzz-cases'];
    let files = 0;
    for (const folder of folders) {
      for (const name of readdirSync(folder).filter((n) => n.endsWith('.eml'))) {
        files++;
        await expectSame(readFileSync(join(folder, name)), `${folder}/${name}`);
      }
    }
    expect(files).toBeGreaterThan(40);
  });
});
