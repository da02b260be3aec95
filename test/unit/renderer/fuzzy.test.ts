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
});
