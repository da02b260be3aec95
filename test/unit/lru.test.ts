import fc from 'fast-check';
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

  it('holds what a plain list-based LRU model holds, in the same order of age, over random operations', () => {
    type Op = { op: 'get' | 'set' | 'delete'; key: number; weight: number } | { op: 'clear' } | { op: 'deleteWhere'; mod: number };
    const opArb: fc.Arbitrary<Op> = fc.oneof(
      { weight: 6, arbitrary: fc.record({ op: fc.constantFrom('get' as const, 'set' as const, 'delete' as const), key: fc.nat(12), weight: fc.integer({ min: 1, max: 6 }) }) },
      { weight: 1, arbitrary: fc.constant({ op: 'clear' as const }) },
      { weight: 1, arbitrary: fc.record({ op: fc.constant('deleteWhere' as const), mod: fc.integer({ min: 2, max: 4 }) }) },
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 4, max: 20 }), fc.array(opArb, { maxLength: 300 }), (maxEntries, maxWeight, ops) => {
        const cache = new LruCache<number, number>({ maxEntries, maxWeight, weigh: (value) => value });
        // The model: oldest first, [key, weight]; a plain array, scanned every time.
        let model: [number, number][] = [];
        const trim = () => {
          while (model.length > maxEntries || model.reduce((sum, [, w]) => sum + w, 0) > maxWeight) model.shift();
        };
        for (const step of ops) {
          if (step.op === 'get') {
            const at = model.findIndex(([key]) => key === step.key);
            expect(cache.get(step.key)).toBe(at === -1 ? undefined : model[at]![1]);
            if (at !== -1) model.push(...model.splice(at, 1));
          } else if (step.op === 'set') {
            cache.set(step.key, step.weight);
            model = model.filter(([key]) => key !== step.key);
            if (step.weight <= maxWeight) model.push([step.key, step.weight]);
            trim();
          } else if (step.op === 'delete') {
            cache.delete(step.key);
            model = model.filter(([key]) => key !== step.key);
          } else if (step.op === 'clear') {
            cache.clear();
            model = [];
          } else if (step.op === 'deleteWhere') {
            const { mod } = step;
            cache.deleteWhere((key) => key % mod === 0);
            model = model.filter(([key]) => key % mod !== 0);
          }
          expect(cache.size).toBe(model.length);
          expect(cache.weight).toBe(model.reduce((sum, [, w]) => sum + w, 0));
        }
        // The order of age: filling with fresh keys evicts exactly the model's oldest first.
        for (const [key] of [...model]) {
          cache.set(1000 + key, 1);
          model.push([1000 + key, 1]);
          trim();
          for (const [k, w] of model) expect(cache.has(k), `key ${k} (weight ${w})`).toBe(true);
          expect(cache.size).toBe(model.length);
        }
      }),
      { numRuns: 300 },
    );
  });
});
