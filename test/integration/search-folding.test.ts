/**
 * Search answers the same question the same way: before the full-text index
 * has caught up with new mail and after, for short terms (scanned) and long
 * ones (indexed), whatever the letters. The model is ECMAScript's own
 * case-insensitive Unicode matching (`/…/iu`: Unicode simple case folding,
 * CaseFolding.txt), not the store's fold.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceService } from '../../src/server/index.ts';
import type { ParsedMessage } from '../../src/server/ingest.ts';
import { TeamStore } from '../../src/server/team-store.ts';

/** The model: does the term occur in the text, letters compared as `/…/iu` compares them? */
const holds = (text: string, term: string) => new RegExp(term.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), 'iu').test(text);

/** Letters whose case is where folding goes wrong: Turkish, Greek final sigma, German sharp s, Cherokee, Georgian, signs that fold to letters. */
const TRICKY = [...'ÉéÜüÖöÅåİıIiΣσςΟοΦφΊίẞßSsſKkKÆæŒœĲĳǄǅǆꭰᎠაᲐǰΐΰ̇ͅιΙ℃ﬀЁёЖжΩωΩЯя'];
const letter = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...TRICKY) },
  { weight: 3, arbitrary: fc.constantFrom(...'abcXYZ pq-') },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }) },
);
const text = fc.array(letter, { minLength: 1, maxLength: 12 }).map((chars) => chars.join(''));
/** A term: part of a subject with each letter's case flipped at random, or any text. */
const termFrom = (subjects: string[]) =>
  fc.oneof(
    fc.tuple(fc.nat(subjects.length - 1), fc.nat(12), fc.integer({ min: 1, max: 6 }), fc.array(fc.boolean(), { minLength: 12, maxLength: 12 })).map(([which, start, length, flips]) =>
      [...subjects[which]!]
        .slice(start, start + length)
        .map((char, i) => (flips[i] ? (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase()) : char))
        .join(''),
    ),
    text,
  );

function parsed(subject: string): ParsedMessage {
  return { sender: { name: '', address: 'sender@acme.test' }, to: [{ name: '', address: 'qa@inbox.test' }], cc: [], subject, date: null, html: null, text: 'body', attachments: [] };
}

describe('search folds every letter alike, on every path', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'inbox-desk-fold-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('gives the model’s answer before and after indexing, for 300 random stores of Unicode subjects', () => {
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 1, maxLength: 8 }).chain((subjects) => fc.tuple(fc.constant(subjects), fc.array(termFrom(subjects), { minLength: 1, maxLength: 6 }))),
        ([subjects, terms]) => {
          const store = new TeamStore('t');
          try {
            const ids = subjects.map((subject, i) => store.addEmail(Buffer.from('x'), parsed(subject), { inbox: 'qa@inbox.test', createdAt: new Date(Date.UTC(2026, 0, 1, 0, i)) }).id);
            const expected = (term: string) => ids.filter((_, i) => holds(subjects[i]!, term) || holds('sender@acme.test', term) || holds('qa@inbox.test', term)).reverse();
            const answer = (term: string) => store.page({ search: term }).emails.map((e) => e.id);
            for (const term of terms) expect(answer(term), `"${term}" before indexing`).toEqual(expected(term));
            store.indexPending();
            for (const term of terms) expect(answer(term), `"${term}" after indexing`).toEqual(expected(term));
          } finally {
            store.close();
          }
        },
      ),
      { numRuns: 300, seed: 29 },
    );
  }, 120_000);

  it('over HTTP, the issue’s case: ÉTÉ ÜBER PLAIN is found by É, ÉT and ÜBER at once and after the index caught up', async () => {
    const service = await startReferenceService({ teams: [{ id: 'demo', token: 't' }], rateLimit: 0 });
    try {
      for (const subject of ['ÉTÉ ÜBER PLAIN', 'été über plain']) {
        await service.inject(`From: a@acme.test\r\nTo: qa@inbox.test\r\nSubject: =?UTF-8?B?${Buffer.from(subject).toString('base64')}?=\r\n\r\nbody\r\n`);
      }
      const search = async (term: string) => {
        const response = await fetch(`${service.baseUrl}/api/teams/demo/emails?search=${encodeURIComponent(term)}`, { headers: { Authorization: 'Bearer t' } });
        return ((await response.json()) as { data: { subject: string }[] }).data.map((e) => e.subject).sort();
      };
      const both = ['ÉTÉ ÜBER PLAIN', 'été über plain'];
      for (const term of ['É', 'ÉT', 'ÜBER', 'über', 'é']) expect(await search(term), `${term}, right after arrival`).toEqual(both);
      service.service.team('demo').indexPending();
      for (const term of ['É', 'ÉT', 'ÜBER', 'über', 'é']) expect(await search(term), `${term}, indexed`).toEqual(both);
    } finally {
      await service.close();
    }
  });

  it('a file written before search folded case is brought up to date once: its index rebuilt, every email found by any case', () => {
    const file = join(dir, 'before-folding.sqlite');
    const store = new TeamStore('t', file);
    const ids = ['Straße ÉTÉ', 'ΟΔΌΣ', 'plain'].map((subject, i) => store.addEmail(Buffer.from('x'), parsed(subject), { inbox: 'qa@inbox.test', createdAt: new Date(Date.UTC(2026, 0, 1 + i)) }).id);
    store.close();
    // The schema as it was: no folded columns, an index over the columns as stored, folding by itself.
    const db = new DatabaseSync(file);
    db.exec(`DROP TRIGGER emails_unindexed; DROP TABLE email_search;
      ALTER TABLE emails DROP COLUMN folded_subject; ALTER TABLE emails DROP COLUMN folded_sender; ALTER TABLE emails DROP COLUMN folded_inbox;
      CREATE VIRTUAL TABLE email_search USING fts5 (subject, sender, inbox, content = 'emails', content_rowid = 'seq', tokenize = 'trigram');
      INSERT INTO email_search (email_search) VALUES ('rebuild');
      CREATE TRIGGER emails_unindexed AFTER DELETE ON emails WHEN old.seq <= (SELECT indexed_up_to FROM search_state) BEGIN
        INSERT INTO email_search (email_search, rowid, subject, sender, inbox) VALUES ('delete', old.seq, old.subject, old.sender, old.inbox);
      END;`);
    db.close();
    const reopened = new TeamStore('t', file);
    try {
      expect(reopened.page({ search: 'straße été' }).emails.map((e) => e.id)).toEqual([ids[0]]);
      expect(reopened.page({ search: 'οδόσ' }).emails.map((e) => e.id)).toEqual([ids[1]]);
      expect(reopened.page({ search: 'É' }).emails.map((e) => e.id)).toEqual([ids[0]]);
      expect(reopened.deleteEmail(ids[2]!)).toBe(true);
      expect(reopened.checkIntegrity()).toEqual([]);
    } finally {
      reopened.close();
    }
  });
});
