/**
 * Automation criteria are regular expressions that strangers' mail is matched
 * against. A backtracking engine lets one pattern like `(a+)+$` stall the
 * service on a 30-character subject, so patterns run on RE2 (re2js, a pure-JS
 * port): matching time is linear in the input, whatever the pattern.
 */
import { RE2JS } from 're2js';
import { PATTERN_LIMIT } from './automation.ts';

export interface CompiledPattern {
  /** True when the pattern matches anywhere in the value, case-insensitively. */
  test(value: string): boolean;
}

export type PatternResult = { ok: true; pattern: CompiledPattern } | { ok: false; message: string };

/**
 * RE2 is linear in the text, but the factor is the pattern's program: a match
 * costs about program size × characters. `(a|aa){1000}` (6,000) against a
 * 5,000-character subject took 0.4 s. Programs are capped, and a value is
 * matched on its first MATCH_CHARS characters, so one match stays near 20 ms.
 */
export const PROGRAM_LIMIT = 500;
export const MATCH_CHARS = 2000;
/** Results per pattern, by value: the 50 recipients of one message share its subject. */
const RECENT_VALUES = 64;

const cache = new Map<string, PatternResult>();
const CACHE_MAX = 500;

export function compilePattern(source: string): PatternResult {
  const cached = cache.get(source);
  if (cached) return cached;
  let result: PatternResult;
  if (source.length > PATTERN_LIMIT) {
    result = { ok: false, message: `The pattern may not be longer than ${PATTERN_LIMIT} characters.` };
  } else {
    try {
      const compiled = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
      const size = compiled.programSize();
      if (size > PROGRAM_LIMIT) {
        result = { ok: false, message: `The pattern is too complex to match quickly (${size} steps, at most ${PROGRAM_LIMIT}): use fewer or smaller repeats.` };
      } else {
        const recent = new Map<string, boolean>();
        const test = (value: string) => {
          const text = value.length > MATCH_CHARS ? value.slice(0, MATCH_CHARS) : value;
          let hit = recent.get(text);
          if (hit === undefined) {
            hit = compiled.test(text);
            if (recent.size >= RECENT_VALUES) recent.delete(recent.keys().next().value!);
            recent.set(text, hit);
          }
          return hit;
        };
        result = { ok: true, pattern: { test } };
      }
    } catch (error) {
      const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : 'not a regular expression';
      result = { ok: false, message: `Not a usable regular expression: ${detail}.` };
    }
  }
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(source, result);
  return result;
}
