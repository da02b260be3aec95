/**
 * Main's modules import one another without going round in a circle (type
 * imports included: a cycle of types is still a knot a newcomer must untie
 * to change either side). Read from the source files' own import lines.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? files(path) : /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every module each one imports (static `import … from` and `export … from`, types too), within src/. */
function graph(root: string): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const file of files(root)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms)]
      .map((m) => normalize(join(dirname(file), m[1]!)))
      .filter((target) => existsSync(target));
    edges.set(file, targets);
  }
  return edges;
}

/** The cycles, each as the path that closes it. */
function cycles(edges: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return found;
}

describe('import cycles', () => {
  it('main (its handlers and their domain modules among it) and the service import in one direction', () => {
    expect(cycles(graph('src/main'))).toEqual([]);
    expect(cycles(graph('src/server'))).toEqual([]);
  });

  it('finds a cycle where there is one (the check itself)', () => {
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c', 'a']]);
  });

  it('sees what it reads: main’s import graph has hundreds of edges, handlers.ts among them', () => {
    const edges = graph('src/main');
    expect([...edges.values()].flat().length).toBeGreaterThan(200);
    expect(edges.get('src/main/handlers.ts')).toContain('src/main/handlers/context.ts');
  });
});
