/**
 * The inbox's one search box: a small query language mapped onto the API's
 * list filters. Runs anywhere; no I/O.
 *
 *   from:billing@vendor.test   sender (a full address; a partial one searches)
 *   to:support@acme.test       inbox (also inbox:)
 *   subject:"Invoice *"        subject, * is a wildcard
 *   is:unread  is:starred      unread / favorite
 *   after:2026-11-01 before:today after:yesterday after:7d   days, local time
 *   has:attachment             filtered on the page the server sent (it has no such filter)
 *   anything else              search (inbox, sender or subject contains it)
 *
 * Quote a value with spaces ("…"). An unknown `key:` is an error shown in
 * place and nothing is sent, so a typo never silently widens a search.
 */
import type { ListQuery } from './list-query.ts';

export type TermKind = 'text' | 'from' | 'to' | 'subject' | 'is' | 'after' | 'before' | 'has';

export interface Term {
  kind: TermKind;
  value: string;
  /** Where the term stands in the input: chips and errors point there. */
  start: number;
  end: number;
  /** The term as typed, for its chip. */
  raw: string;
}

export interface SearchError {
  message: string;
  start: number;
  end: number;
}

export interface ParsedSearch {
  terms: Term[];
  errors: SearchError[];
}

export interface SearchPlan {
  query: Pick<ListQuery, 'inbox' | 'sender' | 'subject' | 'since' | 'until' | 'search' | 'unread' | 'favorite'>;
  /** Narrowing the server cannot do: applied to the page it sends. */
  onPage: { hasAttachment: boolean };
  /** Partial addresses searched as text: the box offers known addresses for them. */
  partial: { field: 'from' | 'to'; value: string }[];
}

const KEYS: Record<string, TermKind> = {
  from: 'from',
  to: 'to',
  inbox: 'to',
  subject: 'subject',
  is: 'is',
  after: 'after',
  before: 'before',
  has: 'has',
};
export const SEARCH_KEYS = ['from:', 'to:', 'subject:', 'is:unread', 'is:starred', 'after:', 'before:', 'has:attachment'];

const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Splits on spaces outside quotes; `key:"a b"` and `"a b"` are one token each. */
function tokens(input: string): { text: string; start: number; end: number }[] {
  const found: { text: string; start: number; end: number }[] = [];
  let i = 0;
  while (i < input.length) {
    while (i < input.length && /\s/.test(input[i]!)) i++;
    if (i >= input.length) break;
    const start = i;
    let quoted = false;
    while (i < input.length && (quoted || !/\s/.test(input[i]!))) {
      if (input[i] === '"') quoted = !quoted;
      i++;
    }
    found.push({ text: input.slice(start, i), start, end: i });
  }
  return found;
}

const unquote = (value: string) => value.replace(/^"(.*)"?$/s, '$1').replace(/"$/, '');

/** A day as typed (2026-11-01, 2026/11/01, today, yesterday, 7d), as local midnight; null if not a day. */
export function parseDay(value: string, now: Date): Date | null {
  const midnight = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());
  const lower = value.toLowerCase();
  if (lower === 'today') return midnight(now);
  if (lower === 'yesterday') return new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1);
  const ago = /^(\d{1,4})d$/.exec(lower);
  if (ago) return new Date(now.getFullYear(), now.getMonth(), now.getDate() - Number(ago[1]));
  const ymd = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(value);
  if (!ymd) return null;
  const date = new Date(Number(ymd[1]), Number(ymd[2]) - 1, Number(ymd[3]));
  return date.getMonth() === Number(ymd[2]) - 1 && date.getDate() === Number(ymd[3]) ? date : null;
}

export function parseSearch(input: string, now: Date = new Date()): ParsedSearch {
  const terms: Term[] = [];
  const errors: SearchError[] = [];
  const seen = new Map<TermKind, Term>();
  for (const token of tokens(input)) {
    const colon = /^([A-Za-z]+):(.*)$/s.exec(token.text);
    if (!colon) {
      terms.push({ kind: 'text', value: unquote(token.text), start: token.start, end: token.end, raw: token.text });
      continue;
    }
    const key = colon[1]!.toLowerCase();
    const kind = KEYS[key];
    const value = unquote(colon[2]!).trim();
    const at = { start: token.start, end: token.end };
    if (!kind) {
      errors.push({ ...at, message: `“${key}:” is not a search term. Use ${SEARCH_KEYS.join(', ')}, or quote the words.` });
      continue;
    }
    if (value === '') {
      errors.push({ ...at, message: `“${key}:” needs a value, such as ${key === 'is' ? 'is:unread' : key === 'has' ? 'has:attachment' : `${key}:…`}.` });
      continue;
    }
    if (kind === 'is' && !['unread', 'starred', 'favorite'].includes(value.toLowerCase())) {
      errors.push({ ...at, message: `is:${value} cannot be searched; the server knows is:unread and is:starred.` });
      continue;
    }
    if (kind === 'has' && !/^attachments?$/i.test(value)) {
      errors.push({ ...at, message: `has:${value} cannot be searched; try has:attachment.` });
      continue;
    }
    if ((kind === 'after' || kind === 'before') && parseDay(value, now) === null) {
      errors.push({ ...at, message: `${key}:${value} is not a day. Use 2026-11-01, today, yesterday or 7d.` });
      continue;
    }
    const term: Term = { kind, value: kind === 'is' || kind === 'has' ? value.toLowerCase() : value, ...at, raw: token.text };
    const single = kind !== 'is' && kind !== 'has';
    if (single && seen.has(kind)) {
      errors.push({ ...at, message: `Only one ${key}: at a time: the server takes one.` });
      continue;
    }
    seen.set(kind, term);
    terms.push(term);
  }
  const after = seen.get('after');
  const before = seen.get('before');
  if (after && before) {
    const from = parseDay(after.value, now)!;
    const until = parseDay(before.value, now)!;
    if (from.getTime() >= until.getTime()) {
      errors.push({ start: after.start, end: before.end, message: `after:${after.value} is not before before:${before.value}: nothing can match.` });
    }
  }
  return { terms, errors };
}

/** What the list asks the server for, from parsed terms (errors left to the caller). */
export function planSearch(parsed: ParsedSearch, now: Date = new Date()): SearchPlan {
  const query: SearchPlan['query'] = {};
  const words: string[] = [];
  const partial: SearchPlan['partial'] = [];
  let hasAttachment = false;
  for (const term of parsed.terms) {
    switch (term.kind) {
      case 'text':
        words.push(term.value);
        break;
      case 'from':
      case 'to':
        if (ADDRESS.test(term.value)) query[term.kind === 'from' ? 'sender' : 'inbox'] = term.value.toLowerCase();
        else {
          // The server matches addresses exactly; a part of one is searched for instead.
          words.push(term.value);
          partial.push({ field: term.kind, value: term.value });
        }
        break;
      case 'subject':
        query.subject = term.value;
        break;
      case 'is':
        if (term.value === 'unread') query.unread = true;
        else query.favorite = true;
        break;
      case 'after': {
        // The service's bounds are exclusive: just before the day starts.
        query.since = new Date(parseDay(term.value, now)!.getTime() - 1).toISOString();
        break;
      }
      case 'before':
        query.until = parseDay(term.value, now)!.toISOString();
        break;
      case 'has':
        hasAttachment = true;
        break;
    }
  }
  if (words.length > 0) query.search = words.join(' ');
  return { query, onPage: { hasAttachment }, partial };
}

/** The search text without the term at [start, end): a chip's ✕. */
export function withoutTerm(input: string, term: Pick<Term, 'start' | 'end'>): string {
  return `${input.slice(0, term.start)}${input.slice(term.end)}`.replace(/\s{2,}/g, ' ').trim();
}

/** Adds or removes an `is:` term (the u and f keys). */
export function toggleIs(input: string, value: 'unread' | 'starred', now: Date = new Date()): string {
  const existing = parseSearch(input, now).terms.find((t) => t.kind === 'is' && (t.value === value || (value === 'starred' && t.value === 'favorite')));
  return existing ? withoutTerm(input, existing) : `${input.trim()} is:${value}`.trim();
}
