import { describe, expect, it } from 'vitest';
import { LruCache } from '../../src/shared/lru.ts';

describe('LRU cache', () => {
  it('evicts the least recently used entry past its count', () => {
    const cache = new LruCache<string, number>({ maxEntries: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now the most recent
    cache.set('c', 3);
    expect(cache.has('b')).toBe(false);
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    expect(cache.size).toBe(2);
  });

  it('stays under its weight, and refuses an entry heavier than the whole budget', () => {
    const cache = new LruCache<string, string>({ maxEntries: 100, maxWeight: 10, weigh: (v) => v.length });
    cache.set('a', 'xxxx');
    cache.set('b', 'yyyy');
    cache.set('c', 'zzzz');
    expect(cache.has('a')).toBe(false);
    expect(cache.weight).toBe(8);
    cache.set('huge', 'x'.repeat(11));
    expect(cache.has('huge')).toBe(false);
    expect(cache.weight).toBe(8);
    cache.deleteWhere((key) => key === 'b');
    expect(cache.weight).toBe(4);
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.weight).toBe(0);
  });
});
