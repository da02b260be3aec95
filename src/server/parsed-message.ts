/** What the service keeps of a raw RFC 822 message, whichever parser read it (ingest.ts, common-mail.ts). */
export interface ParsedAddress {
  name: string;
  address: string;
}

export interface ParsedAttachment {
  fileName: string;
  contentType: string;
  content: Buffer;
  headersHashed: string;
  /** As MailCare records it: the MIME part's length as it sits in the message (headers and encoded body). */
  partSize?: number;
  /** As MailCare records it: md5 of PHP's json_encode of the part's headers (Attachment::hashHeaders). */
  headersMd5?: string;
  /** Its Content-ID without the angle brackets; '' when it has none. */
  contentId: string;
  /**
   * Shown within the body rather than attached, as Mailpit (enmime) sorts parts: its
   * Content-Disposition says inline, or it says nothing and the part has a Content-ID
   * (an image of multipart/related). MailCare lists every part either way.
   */
  inline: boolean;
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

/** An address list as parsers give it: entries, some of them groups (`team: a@x, b@x;`) of members. */
export interface AddressEntry {
  name?: string;
  address?: string;
  group?: AddressEntry[];
}

/** Each header's entries, in order, as the service keeps them: group members in place of the group, addresses lower-cased. */
export function flattenAddresses(lists: AddressEntry[][]): ParsedAddress[] {
  const result: ParsedAddress[] = [];
  for (const list of lists) {
    for (const entry of list) {
      if (entry.address) result.push({ name: entry.name ?? '', address: entry.address.toLowerCase() });
      for (const member of entry.group ?? []) {
        if (member.address) result.push({ name: member.name ?? '', address: member.address.toLowerCase() });
      }
    }
  }
  return result;
}
