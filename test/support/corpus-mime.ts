/**
 * The finder's corpus as mail: each CorpusMail written as an RFC 5322 message
 * in its own charset (iconv-lite's encoders; ISO-2022-JP by hand from EUC-JP,
 * which iconv-lite cannot write) and transfer encoding (nodemailer's
 * quoted-printable, base64 at 76 columns, 8bit, 7bit), its subject and sender
 * as RFC 2047 encoded words in that charset. What the service decodes of it
 * is what the app reads, so the finder is checked through the whole path.
 */
import iconv from 'iconv-lite';
import { encode as encodeQp, wrap as wrapQp } from 'nodemailer/lib/qp';
import type { CorpusMail } from '../fixtures/finder-corpus/layout.ts';
import { ENGLISH } from '../fixtures/finder-corpus/english.ts';
import { EUROPEAN } from '../fixtures/finder-corpus/european.ts';
import { EASTERN } from '../fixtures/finder-corpus/eastern.ts';
import { HELD_OUT } from '../fixtures/finder-corpus/held-out.ts';
import { LATER } from '../fixtures/finder-corpus/later.ts';
import { RECALL } from '../fixtures/finder-corpus/recall.ts';

/** What the finder may be tuned on. */
export const CORPUS: CorpusMail[] = [...ENGLISH, ...EUROPEAN, ...EASTERN, ...LATER, ...RECALL];
/** What it never is: its figures are the finder's on mail it was not shaped by. */
export { HELD_OUT };

/** Text in a charset, checked to come back whole (a character the charset lacks would silently become '?'). */
export function encodeText(text: string, charset: string): Buffer {
  if (charset === 'iso-2022-jp') return iso2022jp(text);
  const bytes = iconv.encode(text, charset);
  const back = iconv.decode(bytes, charset);
  if (back !== text) throw new Error(`${charset} cannot write ${JSON.stringify([...text].find((c, i) => c !== [...back][i]))}`);
  return bytes;
}

/** ISO-2022-JP: EUC-JP's two-byte characters, shifted down into 7 bits between JIS X 0208 escapes. */
function iso2022jp(text: string): Buffer {
  const out: number[] = [];
  let double = false;
  for (const char of text) {
    const euc = iconv.encode(char, 'euc-jp');
    if (euc.length === 1) {
      if (double) out.push(0x1b, 0x28, 0x42);
      double = false;
      out.push(euc[0]!);
    } else if (euc.length === 2 && euc[0]! >= 0xa1) {
      if (!double) out.push(0x1b, 0x24, 0x42);
      double = true;
      out.push(euc[0]! - 0x80, euc[1]! - 0x80);
    } else {
      throw new Error(`ISO-2022-JP cannot write ${char}`);
    }
  }
  if (double) out.push(0x1b, 0x28, 0x42);
  return Buffer.from(out);
}

function encodedWord(text: string, charset: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  // One encoded word per few characters keeps each under 75 octets, as RFC 2047 asks.
  const chars = [...text];
  const words: string[] = [];
  for (let i = 0; i < chars.length; i += 12) words.push(`=?${charset.toUpperCase()}?B?${encodeText(chars.slice(i, i + 12).join(''), charset).toString('base64')}?=`);
  return words.join('\r\n ');
}

function address(from: string, charset: string): string {
  const match = /^(.*)<([^>]+)>$/.exec(from);
  if (!match) return from;
  const name = match[1]!.trim();
  return `${/^[\x20-\x7e]*$/.test(name) ? `"${name}"` : encodedWord(name, charset)} <${match[2]}>`;
}

function part(content: string, type: 'text/plain' | 'text/html', charset: string, encoding: NonNullable<CorpusMail['encoding']>): string {
  const bytes = encodeText(type === 'text/html' ? content.replace(/<meta charset="utf-8">/i, `<meta charset="${charset}">`) : content, charset);
  let body: string;
  if (encoding === 'quoted-printable') body = wrapQp(encodeQp(bytes), 76);
  else if (encoding === 'base64') body = bytes.toString('base64').replace(/.{76}/g, '$&\r\n');
  else {
    if (encoding === '7bit' && bytes.some((b) => b > 0x7f)) throw new Error('7bit part with 8-bit bytes');
    body = bytes.toString('latin1');
  }
  return `Content-Type: ${type}; charset="${charset}"\r\nContent-Transfer-Encoding: ${encoding}\r\n\r\n${body.replace(/\r?\n/g, '\r\n')}`;
}

/** The message as its sender would write it; `latin1` holds its bytes one per character. */
export function corpusMessage(mail: CorpusMail, index: number): Buffer {
  const charset = mail.charset ?? 'utf-8';
  const encoding = mail.encoding ?? 'quoted-printable';
  const date = new Date(Date.UTC(2026, 10, 2, 9, 0, index)).toUTCString().replace('GMT', '+0000');
  const head = [
    `From: ${address(mail.from, charset)}`,
    'To: tester@inbox.test',
    `Subject: ${encodedWord(mail.subject, charset)}`,
    `Date: ${date}`,
    `Message-ID: <${mail.id}@corpus.inbox-desk.test>`,
    'MIME-Version: 1.0',
  ];
  let body: string;
  if (mail.html !== undefined && mail.text !== undefined) {
    const boundary = `=_alt_${index}`;
    head.push(`Content-Type: multipart/alternative; boundary="${boundary}"`);
    body = `\r\n--${boundary}\r\n${part(mail.text, 'text/plain', charset, encoding)}\r\n--${boundary}\r\n${part(mail.html, 'text/html', charset, encoding)}\r\n--${boundary}--\r\n`;
  } else {
    const single = part(mail.html ?? mail.text ?? '', mail.html !== undefined ? 'text/html' : 'text/plain', charset, encoding);
    const split = single.indexOf('\r\n\r\n');
    head.push(single.slice(0, split));
    body = single.slice(split + 4);
  }
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${body}`, 'latin1');
}
