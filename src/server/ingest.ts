import { createHash } from 'node:crypto';
import { simpleParser, type AddressObject } from 'mailparser';

export interface ParsedAddress {
  name: string;
  address: string;
}

export interface ParsedAttachment {
  fileName: string;
  contentType: string;
  content: Buffer;
  headersHashed: string;
}

/** What the service keeps of a raw RFC 822 message. */
export interface ParsedMessage {
  sender: ParsedAddress;
  to: ParsedAddress[];
  cc: ParsedAddress[];
  subject: string;
  date: Date | null;
  html: string | null;
  text: string | null;
  attachments: ParsedAttachment[];
}

function addresses(field: AddressObject | AddressObject[] | undefined): ParsedAddress[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  const result: ParsedAddress[] = [];
  for (const object of objects) {
    for (const entry of object.value) {
      if (entry.address) result.push({ name: entry.name ?? '', address: entry.address.toLowerCase() });
      // Group syntax: `team: a@x, b@x;`
      for (const member of entry.group ?? []) {
        if (member.address) result.push({ name: member.name ?? '', address: member.address.toLowerCase() });
      }
    }
  }
  return result;
}

/** Parses a raw message with a real MIME parser: encoded words, charsets, parts. */
export async function parseMessage(raw: Buffer): Promise<ParsedMessage> {
  const mail = await simpleParser(raw, {
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
    keepCidLinks: true,
  });
  const from = addresses(mail.from)[0] ?? { name: '', address: 'unknown@invalid' };
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
    })),
  };
}
