/**
 * Mailpit's tag names, checked against what Mailpit's own code makes of the
 * same input (tools.CleanTag, sortedUniqueTags; its X-Tags header read when
 * it stores a message), worked out by hand from that code.
 */
import { describe, expect, it } from 'vitest';
import { cleanTag, cleanTags, tagsInHeader } from '../../src/server/message-tags.ts';

describe("Mailpit's tags", () => {
  it('clean a name as CleanTag does: other characters become spaces, runs one space, trimmed, 100 at most', () => {
    expect(cleanTag('  Run #7 / nightly ')).toBe('Run 7 nightly');
    expect(cleanTag('user@example.test')).toBe('user@example.test');
    expect(cleanTag('a_b-c.d')).toBe('a_b-c.d');
    expect(cleanTag('Übersicht')).toBe('bersicht');
    expect(cleanTag('###')).toBe('');
    expect(cleanTag('x'.repeat(150))).toHaveLength(100);
  });

  it('keep one of each name whatever its case, the first spelling, sorted by code unit (capitals first)', () => {
    expect(cleanTags(['signup', 'Beta', 'SIGNUP', 'alpha', '', '!!', 7])).toEqual(['Beta', 'alpha', 'signup']);
  });

  it('read X-Tags from the header only, folded lines joined, with CRLF or bare LF', () => {
    expect(tagsInHeader(Buffer.from('From: a@b.test\r\nX-Tags: signup, Run #7,\r\n  nightly\r\nSubject: x\r\n\r\nbody'))).toEqual(['Run 7', 'nightly', 'signup']);
    expect(tagsInHeader(Buffer.from('x-tags: one\nSubject: x\n\nX-Tags: from the body'))).toEqual(['one']);
    expect(tagsInHeader(Buffer.from('Subject: x\n\nX-Tags: from the body\n'))).toEqual([]);
    expect(tagsInHeader(Buffer.from('Subject: x\r\n\r\n'))).toEqual([]);
  });
});
