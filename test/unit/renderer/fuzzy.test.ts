import { describe, expect, it } from 'vitest';
import { fuzzyScore, rank } from '../../../src/renderer/src/features/palette/fuzzy.ts';

describe('palette matching', () => {
  it('needs every character in order, and ranks word starts and runs first', () => {
    expect(fuzzyScore('str', 'Star / unstar')).not.toBeNull();
    expect(fuzzyScore('rts', 'Star')).toBeNull();
    expect(rank(['Show shortcuts', 'Star / unstar', 'Go to settings'], 'st', (s) => s)[0]).toBe('Star / unstar');
    expect(rank(['Delete email', 'Undo delete', 'Go to settings'], 'gtst', (s) => s)).toEqual(['Go to settings']);
    expect(rank(['a', 'b'], '', (s) => s)).toEqual(['a', 'b']);
  });

  it('never ranks letters scattered over a title above a title that holds the words', () => {
    const titles = ['New address to test with (copied and watched: its first email opens, its code copied)', 'Show the raw message'];
    expect(rank(titles, 'raw', (s) => s)[0]).toBe('Show the raw message');
    expect(rank(['Compare with the previous one', 'Preview width: phone, tablet, full'], 'width', (s) => s)[0]).toBe('Preview width: phone, tablet, full');
    // Every word at a word start, in any order, the earlier the better.
    const checks = ['Check accessibility with axe-core: alt text, lang, contrast, headings, tables, link text', 'Check every link and image'];
    expect(rank(checks, 'link check', (s) => s)[0]).toBe('Check every link and image');
    expect(rank(['Save an attachment', 'Save the email as .eml (its exact bytes)', 'Save the email as PDF'], 'save .eml', (s) => s)[0]).toBe('Save the email as .eml (its exact bytes)');
    expect(rank(['Preview in a client’s dark mode', 'Preview width: phone, tablet, full'], 'phone/tablet width', (s) => s)[0]).toBe('Preview width: phone, tablet, full');
    // The kind of match first, then what the caller prefers (the palette: what runs now).
    expect(rank(['Show the raw message', 'Raw bytes'], 'raw', (s) => s, (s) => (s === 'Show the raw message' ? 1 : 0))).toEqual(['Raw bytes', 'Show the raw message']);
    expect(rank(['Show the raw message', 'Show the raw bytes'], 'raw', (s) => s, (s) => (s === 'Show the raw bytes' ? 1 : 0))).toEqual(['Show the raw bytes', 'Show the raw message']);
  });
});
