/**
 * Mailpit's search language, as its users write it in tests: `to:`, `from:`,
 * `cc:`, `bcc:`, `subject:`, `message-id:`, `tag:`, `is:read|unread|starred|tagged`,
 * `has:attachment`, `after:`/`before:` (a date), quoted phrases, bare words,
 * and `-` before any of them to negate. Every term must hold; a match is a
 * case-insensitive part of the field, as in Mailpit.
 */
import type { StoredEmail } from '../team-store.ts';

export interface SearchTerm {
  field: 'to' | 'from' | 'cc' | 'bcc' | 'subject' | 'message-id' | 'tag' | 'is' | 'has' | 'after' | 'before' | 'text';
  value: string;
  negated: boolean;
}

const FIELDS = new Set(['to', 'from', 'cc', 'bcc', 'subject', 'message-id', 'tag', 'is', 'has', 'after', 'before']);

/** The terms of a query; a `field:` this catcher does not know is searched as a word, as Mailpit does. */
export function parseSearch(query: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  for (const match of query.matchAll(/(-?)(?:([a-z-]+):)?(?:"([^"]*)"?|(\S+))/gi)) {
    const negated = match[1] === '-';
    const key = match[2]?.toLowerCase();
    const value = (match[3] ?? match[4] ?? '').toLowerCase();
    if (key && FIELDS.has(key)) {
      if (value !== '') terms.push({ field: key as SearchTerm['field'], value, negated });
    } else {
      const word = key ? `${key}:${value}` : value;
      if (word !== '') terms.push({ field: 'text', value: word, negated });
    }
  }
  return terms;
}

/** What a term is checked against, read only when a term needs it. */
export interface Searchable {
  email: StoredEmail;
  /** The To, Cc and Bcc as the message wrote them (Bcc: the envelope's recipients in neither). */
  to: () => string[];
  cc: () => string[];
  bcc: () => string[];
  messageId: () => string;
  /** Its Mailpit tags. */
  tags: () => string[];
  /** The body as text (the text part, else the HTML's text). */
  body: () => string;
}

/** A day as `after:`/`before:` take it: a date (2026-11-27) in UTC, or any date Date.parse reads. */
function dayOf(value: string): number | null {
  const day = /^\d{4}-\d\d-\d\d$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Date.parse(value);
  return Number.isNaN(day) ? null : day;
}

function holds(term: SearchTerm, item: Searchable): boolean {
  const { email } = item;
  const inAny = (values: string[]) => values.some((value) => value.toLowerCase().includes(term.value));
  switch (term.field) {
    case 'to':
      return inAny([...item.to(), email.inbox.email, email.inbox.display_name]);
    case 'from':
      return inAny([email.sender.email, email.sender.display_name]);
    case 'cc':
      return inAny(item.cc());
    case 'bcc':
      return inAny(item.bcc());
    case 'subject':
      return email.subject.toLowerCase().includes(term.value);
    case 'message-id':
      return item.messageId().toLowerCase().includes(term.value.replace(/^<|>$/g, ''));
    case 'tag':
      // A whole tag, whatever its case, as Mailpit matches it.
      return item.tags().some((tag) => tag.toLowerCase() === term.value);
    case 'is':
      if (term.value === 'tagged') return item.tags().length > 0;
      if (term.value === 'read') return email.read !== null;
      if (term.value === 'unread') return email.read === null;
      if (term.value === 'starred' || term.value === 'favorite') return email.favorite;
      return false;
    case 'has':
      return /^attachments?$/.test(term.value) ? email.attachments.some((attachment) => !attachment.inline) : false;
    case 'after': {
      const day = dayOf(term.value);
      return day !== null && email.createdAt.getTime() >= day;
    }
    case 'before': {
      const day = dayOf(term.value);
      return day !== null && email.createdAt.getTime() < day;
    }
    case 'text':
      return (
        inAny([email.subject, email.sender.email, email.sender.display_name, email.inbox.email, ...item.to(), ...item.cc()]) ||
        email.attachments.some((a) => a.fileName.toLowerCase().includes(term.value)) ||
        item.body().toLowerCase().includes(term.value)
      );
  }
}

export function matches(terms: SearchTerm[], item: Searchable): boolean {
  return terms.every((term) => holds(term, item) !== term.negated);
}
