/**
 * What Mailpit's shapes need of a stored email beyond its record: the
 * addresses and ids its headers wrote, read from the header block alone
 * (cheap enough for a list), and a snippet of its body. Kept per email:
 * neither changes once stored.
 */
import { htmlTextAndLinks } from '../../shared/domain/mail-insights.ts';
import { LruCache } from '../../shared/lru.ts';
import type { StoredEmail, TeamStore } from '../team-store.ts';

export interface MessageFacts {
  to: { name: string; address: string }[];
  cc: { name: string; address: string }[];
  replyTo: { name: string; address: string }[];
  /** A Bcc header, where the sender kept one (the envelope's other recipients are the rest). */
  bcc: { name: string; address: string }[];
  messageId: string;
  returnPath: string;
  date: Date | null;
  listUnsubscribe: string;
  listUnsubscribePost: string;
  /** The body as text: the text part, else the HTML's text. */
  body: string;
}

const known = new LruCache<string, MessageFacts>({ maxEntries: 5000 });

/** The header block, its folded lines joined: name (lower case) to its values. */
export function headerBlock(raw: Buffer): { name: string; value: string }[] {
  const head = raw.subarray(0, Math.min(raw.length, 256 * 1024)).toString('latin1');
  const end = head.search(/\r?\n\r?\n/);
  const block = end === -1 ? head : head.slice(0, end);
  const headers: { name: string; value: string }[] = [];
  for (const line of block.split(/\r?\n(?![ \t])/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const value = Buffer.from(line.slice(colon + 1).replace(/\r?\n/g, '').trim(), 'latin1').toString('utf8');
    headers.push({ name: line.slice(0, colon).trim(), value });
  }
  return headers;
}

/** Addresses of an address header: `Name <a@b>, c@d`; encoded words are left as written. */
function addressesOf(value: string): { name: string; address: string }[] {
  const found: { name: string; address: string }[] = [];
  for (const part of value.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/)) {
    const angle = /<([^<>\s]+@[^<>\s]+)>/.exec(part);
    const address = angle?.[1] ?? /[^\s<>",;:]+@[^\s<>",;]+/.exec(part)?.[0];
    if (!address) continue;
    const name = angle ? part.slice(0, angle.index).trim().replace(/^"|"$/g, '') : '';
    found.push({ name, address: address.toLowerCase() });
  }
  return found;
}

export function factsOf(team: TeamStore, email: StoredEmail): MessageFacts {
  const key = `${team.id}\u0000${email.id}`;
  const cached = known.get(key);
  if (cached) return cached;
  const content = team.content(email.id);
  const headers = content ? headerBlock(content.raw) : [];
  const all = (name: string) => headers.filter((h) => h.name.toLowerCase() === name).map((h) => h.value);
  const first = (name: string) => all(name)[0] ?? '';
  const to = all('to').flatMap(addressesOf);
  const cc = all('cc').flatMap(addressesOf);
  const bcc = all('bcc').flatMap(addressesOf);
  const dateHeader = first('date');
  const date = dateHeader ? new Date(dateHeader) : null;
  const facts: MessageFacts = {
    to,
    cc,
    bcc,
    replyTo: all('reply-to').flatMap(addressesOf),
    messageId: first('message-id').replace(/^<|>$/g, ''),
    returnPath: first('return-path').replace(/^<|>$/g, ''),
    date: date && !Number.isNaN(date.getTime()) ? date : null,
    listUnsubscribe: first('list-unsubscribe'),
    listUnsubscribePost: first('list-unsubscribe-post'),
    body: content?.text ?? (content?.html ? htmlTextAndLinks(content.html.slice(0, 200_000)).text : ''),
  };
  known.set(key, facts);
  return facts;
}
