/**
 * The shapes most caught mail comes in, parsed in place without mailparser's
 * streams: a text/plain or text/html body, or a multipart/alternative of such
 * parts, with ASCII headers, CRLF lines and no attachment. mailparser costs about
 * 50 µs a message in stream and promise machinery before it reads a byte (78 µs
 * of a 200 µs ingest, test/bench/ingest-parts.ts); this reads the same message
 * with the pieces mailparser itself is built from (mailsplit's MIME nodes,
 * libmime, libqp, addressparser resolved from mailparser), called directly, in a
 * few µs. Anything else, and anything unusual in these shapes, answers null and
 * goes to mailparser: test/unit/common-mail.test.ts holds the two to the same
 * answer on generated and hand-written mail.
 */
import { createRequire } from 'node:module';
import type * as Mailsplit from '@zone-eu/mailsplit';
import type Libmime from 'libmime';
import type Libqp from 'libqp';
import { flattenAddresses, type AddressEntry, type ParsedMessage } from './parsed-message.ts';

// The very copies mailparser loads (it pins their versions, and may carry a nodemailer of its
// own): resolved from its own folder, so that both roads always read mail with the same code.
const fromMailparser = createRequire(createRequire(import.meta.url).resolve('mailparser'));
const fromMailsplit = createRequire(fromMailparser.resolve('@zone-eu/mailsplit'));
const { MimeNode } = fromMailparser('@zone-eu/mailsplit') as typeof Mailsplit;
const libmime = fromMailparser('libmime') as typeof Libmime;
const libqp = fromMailsplit('libqp') as typeof Libqp;
const addressparser = fromMailparser('nodemailer/lib/addressparser') as (value: string) => AddressEntry[];
type MimeNode = InstanceType<typeof MimeNode>;

const CRLF_CRLF = Buffer.from('\r\n\r\n');
const MAX_HEADER_BYTES = 64 * 1024;
const TRANSFER_ENCODINGS = new Set(['', '7bit', '8bit', 'binary', 'quoted-printable', 'base64']);
/** Charsets mailparser reads as UTF-8 without a decoder (its own list). */
const UTF8_CHARSETS = new Set(['ascii', 'usascii', 'utf8']);

/** True when every line ends in CRLF and no CR or LF stands alone. */
function crlfOnly(bytes: Buffer): boolean {
  for (let i = bytes.indexOf(0x0a); i !== -1; i = bytes.indexOf(0x0a, i + 1)) {
    if (i === 0 || bytes[i - 1] !== 0x0d) return false;
  }
  for (let i = bytes.indexOf(0x0d); i !== -1; i = bytes.indexOf(0x0d, i + 1)) {
    if (bytes[i + 1] !== 0x0a) return false;
  }
  return true;
}

function ascii(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/** A MIME node's header block (the blank line included), read as mailsplit reads it; null unless ASCII. */
function mimeNode(block: Buffer, parent: MimeNode | false): MimeNode | null {
  if (!ascii(block)) return null;
  const node = new MimeNode(parent, {});
  node.addHeaderChunk(block);
  node.parseHeaders();
  return node;
}

/** A leaf body as text, the way mailparser decodes a text part; null when it would take another road. */
function leafText(node: MimeNode, body: Buffer): { type: 'text/plain' | 'text/html'; text: string } | null {
  const type = node.contentType || 'text/plain';
  if (type !== 'text/plain' && type !== 'text/html') return null;
  if (node.disposition && node.disposition !== 'inline') return null;
  if (node.filename || node.flowed) return null;
  const encoding = node.encoding || '';
  if (!TRANSFER_ENCODINGS.has(encoding)) return null;
  if (node.charset && !UTF8_CHARSETS.has(node.charset.toLowerCase().replace(/[^a-z0-9]+/g, ''))) return null;
  let bytes: Buffer;
  if (encoding === 'base64') {
    // Only clean base64: a stray character or padding mid-way decodes by chunks in mailsplit.
    const clean = body.toString('latin1').replace(/\r\n/g, '');
    if (clean.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(clean)) return null;
    bytes = Buffer.from(clean, 'base64');
  } else if (encoding === 'quoted-printable') {
    bytes = libqp.decode(body);
  } else {
    bytes = body;
  }
  return { type, text: bytes.toString().replace(/\r?\n/g, '\n') };
}

/**
 * libmime's decodeWords, skipped where it would change nothing: every pattern it
 * replaces holds an encoded word's `=?`, or its own joining marker (which holds NULs).
 */
function decodeWords(text: string): string {
  return text.includes('=?') || text.includes('\0') ? libmime.decodeWords(text) : text;
}

/** An address of plain characters, as apps send from and to (a name or address outside these goes to addressparser). */
const PLAIN = '([\\w.+-]+@[A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)+)';
const PLAIN_ADDRESS = new RegExp(`^(?:([A-Za-z0-9]+(?: [A-Za-z0-9]+)*) ?<${PLAIN}>|<${PLAIN}>|${PLAIN})$`);

/**
 * The three shapes most address headers take, `Ann Lee <ann@app.test>`, `<ann@app.test>`
 * and `ann@app.test`, read as addressparser reads them without its tokenizer (which
 * took about 4% of ingest's CPU); null for anything else.
 */
function plainAddress(value: string): AddressEntry[] | null {
  const match = PLAIN_ADDRESS.exec(value);
  if (!match) return null;
  return [{ address: match[2] ?? match[3] ?? match[4]!, name: match[1] ?? '' }];
}

/** Display names and encoded words decoded as mailparser's decodeAddresses does; null where it does more. */
function decodeAddresses(list: AddressEntry[]): boolean {
  for (const entry of list) {
    entry.name = (entry.name ?? '').toString().trim();
    if (entry.name) {
      try {
        entry.name = decodeWords(entry.name);
      } catch {
        // kept as it is, as mailparser keeps it
      }
    }
    // An encoded word in an address or an internationalized domain: mailparser's own checks.
    if (entry.address && (entry.address.includes('=?') || /@xn--/.test(entry.address))) return false;
    if (entry.group && !decodeAddresses(entry.group)) return false;
  }
  return true;
}

/** The parts of a multipart body between its delimiters, or null when a line only looks like one. */
function splitParts(body: Buffer, boundary: Buffer): Buffer[] | null {
  const text = body.toString('latin1');
  const marker = `--${boundary.toString('latin1')}`;
  const parts: Buffer[] = [];
  let start = -1;
  const first = text.indexOf(`\r\n${marker}`);
  let at = text.startsWith(marker) ? 0 : first === -1 ? -1 : first + 2;
  while (at !== -1) {
    const after = at + marker.length;
    const closing = text.startsWith('--', after);
    const lineEnd = closing ? after + 2 : after;
    // Exactly the delimiter, then the end of its line: anything else goes to mailparser.
    if (!(text.startsWith('\r\n', lineEnd) || (closing && lineEnd === text.length))) return null;
    // The CRLF before a delimiter belongs to it (RFC 2046 §5.1.1).
    if (start !== -1) parts.push(body.subarray(start, at - 2));
    if (closing) return parts;
    start = lineEnd + 2;
    const next = text.indexOf(`\r\n${marker}`, start - 2);
    at = next === -1 ? -1 : next + 2;
  }
  return null; // no closing delimiter
}

/**
 * The message parsed, as parseMessage (mailparser) would parse it, when it has
 * one of the common shapes; null otherwise.
 */
export function parseCommonShapes(raw: Buffer): ParsedMessage | null {
  const headerEnd = raw.indexOf(CRLF_CRLF);
  // No header block, one that starts blank, or one larger than a common message's.
  if (headerEnd <= 0 || raw[0] === 0x0d || headerEnd > MAX_HEADER_BYTES || !crlfOnly(raw)) return null;
  const root = mimeNode(raw.subarray(0, headerEnd + 4), false);
  if (!root) return null;
  const body = raw.subarray(headerEnd + 4);

  const texts: string[] = [];
  const htmls: string[] = [];
  if (!root.multipart) {
    const leaf = leafText(root, body);
    if (!leaf) return null;
    if (leaf.text) {
      // A lone HTML body gives mailparser an empty text (its HTML-to-text is skipped).
      texts.push(leaf.type === 'text/plain' ? leaf.text : '');
      if (leaf.type === 'text/html') htmls.push(leaf.text);
    }
  } else {
    if (root.contentType !== 'multipart/alternative' || !root._boundary) return null;
    const parts = splitParts(body, root._boundary);
    if (!parts || parts.length === 0) return null;
    for (const part of parts) {
      // A part that starts with a blank line has no headers; otherwise they end at the first blank line.
      const bodyStart = part[0] === 0x0d ? 2 : part.indexOf(CRLF_CRLF) + 4;
      // No end to the headers, or nothing after them: mailsplit's own edge cases.
      if (bodyStart === 3 || bodyStart >= part.length) return null;
      const node = mimeNode(part.subarray(0, bodyStart), root);
      if (!node || node.multipart) return null;
      const leaf = leafText(node, part.subarray(bodyStart));
      if (!leaf) return null;
      if (leaf.text) (leaf.type === 'text/plain' ? texts : htmls).push(leaf.text);
    }
  }

  // The headers, as mailparser's processHeaders reads the few the service keeps.
  let subject: string | undefined;
  let from: AddressEntry[] | undefined;
  let date: Date | undefined;
  const to: AddressEntry[][] = [];
  const cc: AddressEntry[][] = [];
  for (const line of root.headers ? root.headers.getList() : []) {
    const { key } = line;
    if (key !== 'subject' && key !== 'from' && key !== 'to' && key !== 'cc' && key !== 'date') continue;
    const value = String(libmime.decodeHeader(line.line)?.value ?? '').trim();
    if (key === 'subject') {
      let decoded = value;
      try {
        decoded = decodeWords(value);
      } catch {
        // kept as it is, as mailparser keeps it
      }
      if (decoded && subject === undefined) subject = decoded;
    } else if (key === 'date') {
      const parsed = new Date(value);
      // mailparser takes the time of parsing for a date it cannot read.
      if (date === undefined) date = Number.isNaN(parsed.getTime()) ? new Date() : parsed;
    } else {
      const list = plainAddress(value) ?? addressparser(value);
      if (!decodeAddresses(list)) return null;
      if (key === 'from') from ??= list;
      else (key === 'to' ? to : cc).push(list);
    }
  }
  const sender = flattenAddresses(from ? [from] : [])[0] ?? { name: '', address: 'unknown@invalid' };
  const html = htmls.join('<br/>\n');
  const text = texts.join('\n');
  return {
    sender,
    to: flattenAddresses(to),
    cc: flattenAddresses(cc),
    subject: subject ?? '',
    date: date ?? null,
    html: html !== '' ? html : null,
    text: text !== '' ? text : null,
    attachments: [],
  };
}
