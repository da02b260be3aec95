import { createHash } from 'node:crypto';
import { simpleParser, type AddressObject } from 'mailparser';
import { phpJsonEncode } from '../shared/domain/webhook-payload.ts';
import { parseCommonShapes } from './common-mail.ts';
import { flattenAddresses, type ParsedAddress, type ParsedMessage } from './parsed-message.ts';

export type { ParsedAddress, ParsedAttachment, ParsedMessage } from './parsed-message.ts';

function addresses(field: AddressObject | AddressObject[] | undefined): ParsedAddress[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return flattenAddresses(objects.map((object) => object.value));
}

/**
 * The leaf MIME parts of a message as they sit in its bytes: each part's
 * headers (names lower-cased, folded lines joined) and its length from the
 * first header to the end of its body, the way mailparse (which MailCare's
 * parser uses) measures a part. Only what MailCare's attachment record needs.
 */
function mimeLeaves(raw: Buffer): { headers: [string, string][]; size: number }[] {
  const text = raw.toString('latin1');
  const leaves: { headers: [string, string][]; size: number }[] = [];
  const walk = (start: number, end: number) => {
    const part = text.slice(start, end);
    const split = /\r?\n\r?\n/.exec(part);
    const head = split ? part.slice(0, split.index) : part;
    const headers: [string, string][] = [];
    for (const line of head.split(/\r?\n(?![ \t])/)) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).replace(/\r?\n/g, '').trim()]);
    }
    const type = headers.find(([name]) => name === 'content-type')?.[1] ?? '';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (!/^multipart\//i.test(type) || !boundary) {
      leaves.push({ headers, size: end - start });
      return;
    }
    const delimiter = new RegExp(`(?:^|\\r?\\n)--${boundary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(--)?[ \\t]*(?:\\r?\\n|$)`, 'g');
    let previous: number | null = null;
    for (const match of part.matchAll(delimiter)) {
      const at = start + match.index!;
      if (previous !== null) walk(previous, at);
      if (match[1]) return;
      previous = at + match[0].length;
    }
  };
  walk(0, text.length);
  return leaves.filter(({ headers }) => headers.some(([name, value]) => (name === 'content-disposition' && /attachment|inline/i.test(value)) || (name === 'content-type' && /name=/i.test(value))));
}

/** The headers as mailparse gives them to PHP: one key a name, repeated names as arrays. */
function headerObject(headers: [string, string][]): Record<string, string | string[]> {
  const object: Record<string, string | string[]> = {};
  for (const [name, value] of headers) {
    const known = object[name];
    object[name] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
  }
  return object;
}

/** mailparser calls a part without a Content-Disposition an attachment; Mailpit reads the header itself. */
function isInline(disposition: unknown, contentId: string | undefined): boolean {
  const said = typeof disposition === 'object' && disposition !== null ? (disposition as { value?: unknown }).value : disposition;
  if (typeof said === 'string' && said.trim() !== '') return said.trim().toLowerCase() === 'inline';
  return Boolean(contentId);
}

/**
 * Parses a raw message: the common shapes in place (common-mail.ts), the rest
 * with mailparser. Both give the same answer for what the first one reads.
 */
export async function parseMessage(raw: Buffer): Promise<ParsedMessage> {
  return parseCommonShapes(raw) ?? parseWithMailparser(raw);
}

/** Parses any message with a real MIME parser: encoded words, charsets, parts, attachments. */
export async function parseWithMailparser(raw: Buffer): Promise<ParsedMessage> {
  const mail = await simpleParser(raw, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
    keepCidLinks: true,
  });
  const from = addresses(mail.from)[0] ?? { name: '', address: 'unknown@invalid' };
  // MailCare's record of each attachment, where the parts line up with mailparser's.
  const leaves = mail.attachments.length > 0 ? mimeLeaves(raw) : [];
  const mailcareRecord = leaves.length === mail.attachments.length;
  return {
    sender: from,
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    subject: mail.subject ?? '',
    date: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : null,
    html: typeof mail.html === 'string' && mail.html !== '' ? mail.html : null,
    text: typeof mail.text === 'string' && mail.text !== '' ? mail.text : null,
    attachments: mail.attachments.map((attachment, index) => ({
      fileName: attachment.filename ?? `attachment-${index + 1}`,
      contentType: attachment.contentType || 'application/octet-stream',
      content: attachment.content,
      headersHashed: createHash('sha1')
        .update(JSON.stringify([...attachment.headers.entries()]))
        .digest('hex'),
      contentId: attachment.cid ?? '',
      inline: isInline(attachment.headers.get('content-disposition'), attachment.cid),
      ...(mailcareRecord
        ? { partSize: leaves[index]!.size, headersMd5: createHash('md5').update(phpJsonEncode(headerObject(leaves[index]!.headers))).digest('hex') }
        : {}),
    })),
  };
}
