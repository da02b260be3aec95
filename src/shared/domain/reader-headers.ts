/**
 * What the sending app wrote at the top of its message, as the reader shows
 * it: From, To, Cc, Reply-To and Subject with their encoded words decoded,
 * and the Date header's own time. The API's record gives the envelope (the
 * inbox it was delivered to) and the arrival time instead; a tester checking
 * their app's mail wants what the app wrote, and both where they differ.
 * Pure: the raw message's header section in, the fields out.
 */
import { decodeEncodedWords } from './encoded-words.ts';
import { parseHeaders } from './headers.ts';

export interface ReaderHeaders {
  from: string | null;
  to: string | null;
  cc: string | null;
  replyTo: string | null;
  subject: string | null;
  /** The Date header as written (decoded). */
  dateText: string | null;
  /** Its time, when it parses (ISO 8601). */
  date: string | null;
}

/** The first header of that name, decoded; null when the message has none. */
function first(headers: { name: string; value: string }[], name: string): string | null {
  const found = headers.find((header) => header.name.toLowerCase() === name);
  return found ? decodeEncodedWords(found.value) : null;
}

export function readerHeaders(rawHead: string): ReaderHeaders {
  const headers = parseHeaders(rawHead);
  const dateText = first(headers, 'date');
  const parsed = dateText === null ? Number.NaN : Date.parse(dateText.replace(/\s*\([^)]*\)\s*$/, ''));
  return {
    from: first(headers, 'from'),
    to: first(headers, 'to'),
    cc: first(headers, 'cc'),
    replyTo: first(headers, 'reply-to'),
    subject: first(headers, 'subject'),
    dateText,
    date: Number.isNaN(parsed) ? null : new Date(parsed).toISOString(),
  };
}

/** The addresses a header names (for "was it delivered to one of them?"), lower-cased. */
export function addressesIn(value: string | null): string[] {
  if (!value) return [];
  return [...value.matchAll(/[^\s<>,;:"]+@[^\s<>,;:"]+/g)].map((match) => match[0].toLowerCase().replace(/[.>]+$/, ''));
}

/** Whether two times differ by more than a minute: then both are shown. */
export function differsByMinute(a: string, b: string): boolean {
  return Math.abs(Date.parse(a) - Date.parse(b)) > 60_000;
}
