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
      result = { ok: true, pattern: { test: (value) => compiled.test(value) } };
    } catch (error) {
      const detail = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : 'not a regular expression';
      result = { ok: false, message: `Not a usable regular expression: ${detail}.` };
    }
  }
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
  cache.set(source, result);
  return result;
}
