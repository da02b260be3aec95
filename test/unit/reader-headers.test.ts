/**
 * Encoded words and the reader's headers, on hand-made headers whose meaning
 * is written out here, and on every case against libmime (nodemailer's and
 * mailparser's own decoder, an implementation independent of ours) where the
 * words are well-formed.
 */
import libmime from 'libmime';
import { describe, expect, it } from 'vitest';
import { decodeEncodedWords } from '../../src/shared/domain/encoded-words.ts';
import { addressesIn, differsByMinute, readerHeaders } from '../../src/shared/domain/reader-headers.ts';

const WELL_FORMED: [string, string][] = [
  ['=?UTF-8?B?w4lUw4k=?= <ete@example.test>', 'ÉTÉ <ete@example.test>'],
  ['=?ISO-8859-1?Q?Caf=E9?= =?UTF-8?B?w6k=?=', 'Caféé'],
  ['=?utf-8?q?J=C3=BCrgen_M=C3=BCller?= <jm@example.test>', 'Jürgen Müller <jm@example.test>'],
  ['=?Shift_JIS?B?k/qWe4zq?=', '日本語'],
  ['=?KOI8-R?Q?=F0=D2=C9=D7=C5=D4?=', 'Привет'],
  ['=?windows-1252?Q?=93quoted=94?=', '“quoted”'],
  ['a =?UTF-8?Q?b?=  =?UTF-8?Q?c?= d', 'a bc d'],
  ['=?UTF-8*en?Q?Hello?= world', 'Hello world'],
  ['=?UTF-8?B?8J+YgCBZb3VyIGNvZGU=?=', '😀 Your code'],
  ['Plain, no words', 'Plain, no words'],
  ['=?UTF-8?Q?a=20b?= =?UTF-8?Q?_c?=', 'a b c'],
];

describe('RFC 2047 encoded words', () => {
  it('decodes what mail programs write, as written out by hand and as libmime reads it', () => {
    for (const [encoded, meant] of WELL_FORMED) {
      expect(decodeEncodedWords(encoded), encoded).toBe(meant);
      expect(libmime.decodeWords(encoded), `libmime on ${encoded}`).toBe(meant);
    }
  });

  it('leaves a word it cannot read as it was written: an unknown charset, broken base64', () => {
    for (const broken of ['=?x-unknown?Q?abc?=', '=?UTF-8?B?@@@@?=', '=?UTF-8?X?abc?=', '=?=?=']) expect(decodeEncodedWords(broken)).toBe(broken);
  });
});

describe('the reader’s headers', () => {
  const head = [
    'Received: from mx.test by catcher',
    'From: =?UTF-8?Q?M=C3=BCller_Support?= <support@myapp.test>',
    'To: "Doe, Jane" <jane@example.test>,',
    ' =?UTF-8?B?SsO8cmdlbg==?= <juergen@example.test>',
    'Cc: team@example.test',
    'Reply-To: noreply@myapp.test',
    'Subject: =?UTF-8?B?V2lsbGtvbW1lbiwgSsO8cmdlbg==?=',
    'Date: Tue, 24 Nov 2026 09:15:00 +0100 (CET)',
    'Message-ID: <1@myapp.test>',
  ].join('\r\n');

  it('gives what the app wrote, unfolded and decoded, and the Date header’s own time', () => {
    expect(readerHeaders(`${head}\r\n\r\nbody`)).toEqual({
      from: 'Müller Support <support@myapp.test>',
      to: '"Doe, Jane" <jane@example.test>, Jürgen <juergen@example.test>',
      cc: 'team@example.test',
      replyTo: 'noreply@myapp.test',
      subject: 'Willkommen, Jürgen',
      dateText: 'Tue, 24 Nov 2026 09:15:00 +0100 (CET)',
      date: '2026-11-24T08:15:00.000Z',
    });
  });

  it('keeps a Date that does not parse as text, and names no time for it', () => {
    const headers = readerHeaders('Date: Thu, 99 Foo 99999 99:99:99 +9999\r\nFrom: a@b.test');
    expect(headers.dateText).toBe('Thu, 99 Foo 99999 99:99:99 +9999');
    expect(headers.date).toBeNull();
    expect(headers.to).toBeNull();
  });

  it('finds the addresses a header names (was it delivered to one of them?), and whether two times are a minute apart', () => {
    expect(addressesIn('"Doe, Jane" <Jane@Example.test>, Jürgen <juergen@example.test>')).toEqual(['jane@example.test', 'juergen@example.test']);
    expect(addressesIn(null)).toEqual([]);
    expect(differsByMinute('2026-11-24T08:15:00Z', '2026-11-24T08:15:59Z')).toBe(false);
    expect(differsByMinute('2026-11-24T08:15:00Z', '2026-11-24T08:16:01Z')).toBe(true);
  });
});
