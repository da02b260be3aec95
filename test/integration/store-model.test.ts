/**
 * The reference service's store against a plain in-memory model: random
 * sequences of inject / delete / star / read / index / restart, and after each
 * step a query (list, filters, search, pagination, counts) whose answer must
 * be the model's. After each sequence SQLite's integrity_check and the
 * full-text index's own check must be clean. The first case is the sequence
 * that once damaged the index (issue 19); fast-check shrinks any new failure
 * to its shortest form.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ParsedMessage } from '../../src/server/ingest.ts';
import { TeamStore, type ListFilters } from '../../src/server/team-store.ts';

interface ModelEmail {
  id: string;
  subject: string;
  sender: string;
  inbox: string;
  createdAt: number;
  read: boolean;
  favorite: boolean;
}

const WORDS = ['Invoice', 'zebra', 'Order', 'shipped', 'alpha', 'Zeb', 'ra', 'ORDER42', 'x', 'Réunion'];
const SENDERS = ['bot+orders@shop.test', 'alice@acme.test', 'malice@acme.test'];
const INBOXES = ['support+vip@inbox.test', 'sales@inbox.test'];
const TERMS = ['zebra', 'ord', 'inv', 'ra', 'x', 'order42', 'acme', 'vip', 'ship', 'zzz', 'e', 'alice@', 'union'];
const PATTERNS = ['Invoice *', '*zebra*', '*', 'x', '*ra', 'order*42*'];

type Op =
  | { op: 'inject'; words: number[]; sender: number; inbox: number; minute: number }
  | { op: 'delete' | 'read'; pick: number }
  | { op: 'star'; pick: number; value: boolean }
  | { op: 'index' | 'restart' }
  | { op: 'query'; term?: number; pattern?: number; sender?: number; inbox?: number; unread: boolean; favorite: boolean; offset: number; limit: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('inject' as const), words: fc.array(fc.nat(WORDS.length - 1), { minLength: 1, maxLength: 4 }), sender: fc.nat(SENDERS.length - 1), inbox: fc.nat(INBOXES.length - 1), minute: fc.nat(20) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constantFrom('delete' as const, 'read' as const), pick: fc.nat(40) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('star' as const), pick: fc.nat(40), value: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constantFrom('index' as const, 'restart' as const) }) },
  {
    weight: 4,
    arbitrary: fc.record(
      {
        op: fc.constant('query' as const),
        term: fc.nat(TERMS.length - 1),
        pattern: fc.nat(PATTERNS.length - 1),
        sender: fc.nat(SENDERS.length - 1),
        inbox: fc.nat(INBOXES.length - 1),
        unread: fc.boolean(),
        favorite: fc.boolean(),
        offset: fc.nat(6),
        limit: fc.integer({ min: 1, max: 8 }),
      },
      { requiredKeys: ['op', 'unread', 'favorite', 'offset', 'limit'] },
    ),
  },
);

function parsed(subject: string, sender: string, inbox: string): ParsedMessage {
  return { sender: { name: '', address: sender }, to: [{ name: '', address: inbox }], cc: [], subject, date: null, html: null, text: 'body', attachments: [] };
}

/** The model's answer: every filter read plainly, newest first, ties by id. */
function modelPage(emails: ModelEmail[], filters: ListFilters, offset: number, limit: number) {
  const wildcard = (pattern: string) =>
    new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`, 'is');
  const hits = emails
    .filter((e) => filters.search === undefined || [e.inbox, e.sender, e.subject.toLowerCase()].some((field) => field.includes(filters.search!.toLowerCase())))
    .filter((e) => filters.subject === undefined || wildcard(filters.subject).test(e.subject))
    .filter((e) => filters.sender === undefined || e.sender === filters.sender)
    .filter((e) => filters.inbox === undefined || e.inbox === filters.inbox)
    .filter((e) => !filters.unread || !e.read)
    .filter((e) => !filters.favorite || e.favorite)
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { ids: hits.slice(offset, offset + limit).map((e) => e.id), total: hits.length };
}

describe('the store against a plain model (issue 19)', () => {
  let dir = '';
  let run = 0;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'inbox-desk-model-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const check = (ops: Op[]) => {
    // A file only where the sequence restarts: a file store also starts a checkpoint thread.
    const file = ops.some((step) => step.op === 'restart') ? join(dir, `run-${run++}.sqlite`) : undefined;
    let store = new TeamStore('t', file);
    const model: ModelEmail[] = [];
    const base = Date.UTC(2026, 10, 1);
    const pick = (n: number) => (model.length === 0 ? undefined : model[n % model.length]);
    try {
      for (const step of ops) {
        switch (step.op) {
          case 'inject': {
            const subject = step.words.map((w) => WORDS[w]).join(' ');
            const createdAt = base + step.minute * 60_000;
            const email = store.addEmail(Buffer.from(`Subject: ${subject}\r\n\r\nbody`), parsed(subject, SENDERS[step.sender]!, INBOXES[step.inbox]!), {
              inbox: INBOXES[step.inbox]!,
              createdAt: new Date(createdAt),
            });
            model.push({ id: email.id, subject, sender: SENDERS[step.sender]!, inbox: INBOXES[step.inbox]!, createdAt, read: false, favorite: false });
            break;
          }
          case 'delete': {
            const target = pick(step.pick);
            expect(store.deleteEmail(target?.id ?? 'missing')).toBe(target !== undefined);
            if (target) model.splice(model.indexOf(target), 1);
            break;
          }
          case 'read': {
            const target = pick(step.pick);
            if (!target) break;
            expect(store.updateEmail(target.id, { read: new Date(base) })).toBe(true);
            target.read = true;
            break;
          }
          case 'star': {
            const target = pick(step.pick);
            if (!target) break;
            expect(store.updateEmail(target.id, { favorite: step.value })).toBe(true);
            target.favorite = step.value;
            break;
          }
          case 'index':
            store.indexPending();
            break;
          case 'restart':
            store.close();
            store = new TeamStore('t', file);
            break;
          case 'query': {
            const filters: ListFilters = {
              ...(step.term !== undefined ? { search: TERMS[step.term] } : {}),
              ...(step.pattern !== undefined ? { subject: PATTERNS[step.pattern] } : {}),
              ...(step.sender !== undefined ? { sender: SENDERS[step.sender] } : {}),
              ...(step.inbox !== undefined ? { inbox: INBOXES[step.inbox] } : {}),
              ...(step.unread ? { unread: true } : {}),
              ...(step.favorite ? { favorite: true } : {}),
            };
            const page = store.page(filters, step.offset, step.limit);
            const expected = modelPage(model, filters, step.offset, step.limit);
            expect({ ids: page.emails.map((e) => e.id), total: page.total }, JSON.stringify(filters)).toEqual(expected);
            break;
          }
        }
        // Counts and the whole list agree after every step.
        expect(store.count()).toBe(model.length);
        expect(store.page({ unread: true }, 0, 0).total).toBe(model.filter((e) => !e.read).length);
        expect(store.page({ favorite: true }, 0, 0).total).toBe(model.filter((e) => e.favorite).length);
      }
      store.indexPending();
      // Every email left is findable by a term from its subject, through the index.
      for (const email of model) {
        const word = email.subject.split(' ').find((w) => w.length >= 3 && /^[\x20-\x7e]+$/.test(w));
        if (word) expect(store.page({ search: word }).emails.map((e) => e.id)).toContain(email.id);
      }
      expect(store.checkIntegrity()).toEqual([]);
    } finally {
      store.close();
    }
  };

  it('the sequence that damaged the search index: delete the newest, then the next email reuses its row', () => {
    const inject = (words: number[], minute: number): Op => ({ op: 'inject', words, sender: 0, inbox: 0, minute });
    check([
      inject([0], 1),
      inject([2], 2),
      { op: 'index' },
      inject([4], 3),
      { op: 'delete', pick: 2 },
      inject([1, 3], 4),
      { op: 'query', term: 0, unread: false, favorite: false, offset: 0, limit: 8 },
      { op: 'index' },
      { op: 'query', term: 0, unread: false, favorite: false, offset: 0, limit: 8 },
      { op: 'delete', pick: 2 },
      inject([4], 5),
      { op: 'index' },
      { op: 'delete', pick: 2 },
      { op: 'delete', pick: 0 },
      { op: 'query', unread: false, favorite: false, offset: 0, limit: 8 },
    ]);
  });

  it('a file written when row numbers could be reused is rebuilt once: every email kept, searchable, sound', () => {
    const file = join(dir, 'legacy.sqlite');
    const store = new TeamStore('t', file);
    const ids = ['Invoice zebra', 'Order shipped', 'alpha x'].map(
      (subject, i) => store.addEmail(Buffer.from('x'), parsed(subject, SENDERS[0]!, INBOXES[0]!), { inbox: INBOXES[0]!, createdAt: new Date(Date.UTC(2026, 10, 1 + i)) }).id,
    );
    store.close();
    // The table as older versions made it: no AUTOINCREMENT.
    const db = new DatabaseSync(file);
    const { sql } = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'emails'").get() as { sql: string };
    db.exec(`ALTER TABLE emails RENAME TO e_old; ${sql.replace(/\s*AUTOINCREMENT/i, '')}; INSERT INTO emails SELECT * FROM e_old; DROP TABLE e_old;`);
    db.close();
    const reopened = new TeamStore('t', file);
    try {
      expect(reopened.page({}).emails.map((e) => e.id)).toEqual([...ids].reverse());
      expect(reopened.page({ search: 'zebra' }).emails.map((e) => e.id)).toEqual([ids[0]]);
      expect(reopened.checkIntegrity()).toEqual([]);
    } finally {
      reopened.close();
    }
    const after = new DatabaseSync(file, { readOnly: true });
    expect((after.prepare("SELECT sql FROM sqlite_master WHERE name = 'emails'").get() as { sql: string }).sql).toMatch(/AUTOINCREMENT/);
    after.close();
  });

  it('agrees with the model on 2,000 random sequences, and the files stay sound', () => {
    fc.assert(fc.property(fc.array(opArb, { minLength: 1, maxLength: 30 }), (ops) => check(ops)), { numRuns: 2000, seed: 19 });
  }, 120_000);
});
