/**
 * Checks an automation's regular expression as it is typed: where it is
 * wrong (a position to point at), and what is risky about it. Pure, no
 * regex engine of its own beyond the platform's.
 */
import { DEFAULT_FLAVOR, FLAVOR_RECORDS, type FlavorName } from '../flavors/index.ts';

export interface PatternProblem {
  message: string;
  /** Index in the pattern the problem starts at. */
  at: number;
}

export interface PatternReport {
  error: PatternProblem | null;
  warnings: string[];
}

/** Where the first syntax problem is, by a scan that knows groups, classes, escapes and quantifiers. */
function firstProblem(source: string): PatternProblem | null {
  const open: number[] = [];
  let atomBefore = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\') {
      if (i === source.length - 1) return { message: 'A backslash at the end escapes nothing.', at: i };
      const next = source[i + 1]!;
      if (/[1-9]/.test(next)) return { message: `\\${next} refers back to a group: the service's engine (RE2) cannot do that.`, at: i };
      i++;
      atomBefore = true;
      continue;
    }
    if (char === '[') {
      let j = i + 1;
      if (source[j] === '^') j++;
      if (source[j] === ']') j++;
      while (j < source.length && source[j] !== ']') j += source[j] === '\\' ? 2 : 1;
      if (j >= source.length) return { message: 'This [ is never closed with ].', at: i };
      i = j;
      atomBefore = true;
      continue;
    }
    if (char === '(') {
      if (/^\(\?<?[=!]/.test(source.slice(i))) return { message: 'Lookahead and lookbehind, (?= (?! (?<= (?<!, are not supported by the service’s engine (RE2).', at: i };
      open.push(i);
      atomBefore = false;
      if (source[i + 1] === '?') i += source[i + 2] === ':' ? 2 : 1;
      continue;
    }
    if (char === ')') {
      if (open.length === 0) return { message: 'This ) closes nothing.', at: i };
      open.pop();
      atomBefore = true;
      continue;
    }
    if (char === '|') {
      atomBefore = false;
      continue;
    }
    if (char === '*' || char === '+' || char === '?' || (char === '{' && /^\{\d+(,\d*)?\}/.test(source.slice(i)))) {
      if (!atomBefore) return { message: `“${char}” repeats nothing here: put something before it, or escape it (\\${char}).`, at: i };
      if (char === '{') i = source.indexOf('}', i);
      // A lazy or possessive mark may follow; a second repeat may not.
      if (source[i + 1] === '?' || source[i + 1] === '+') i++;
      atomBefore = false;
      continue;
    }
    atomBefore = true;
  }
  if (open.length > 0) return { message: 'This ( is never closed with ).', at: open[open.length - 1]! };
  return null;
}

/** A group with a repeat inside, itself repeated: (a+)+, (x*y)* … */
const NESTED_REPEAT = /\((?:[^()\\]|\\.)*[*+}](?:[^()\\]|\\.)*\)[*+{]/;

export function checkPattern(source: string, flavor: FlavorName = DEFAULT_FLAVOR): PatternReport {
  const engine = FLAVOR_RECORDS[flavor].patternEngine;
  if (source.trim() === '') return { error: null, warnings: [] };
  let error = firstProblem(source);
  let compiled: RegExp | null = null;
  try {
    compiled = new RegExp(source, 'i');
  } catch (thrown) {
    error ??= { message: thrown instanceof Error ? thrown.message.replace(/^Invalid regular expression: /, '') : 'Not a regular expression.', at: 0 };
  }
  // MailCare runs PCRE, which has backreferences and lookaround: only RE2 refuses them.
  if (error && engine === 'pcre' && /RE2/.test(error.message) && compiled) error = null;
  // MailCare wraps the pattern as '#' . pattern . '#i': a bare # ends it there, and preg_match fails on every email.
  if (!error && engine === 'pcre') {
    for (let i = 0; i < source.length; i++) {
      if (source[i] === '\\') i++;
      else if (source[i] === '#') {
        error = { message: 'MailCare wraps patterns in # … #: this # would end the pattern, and the rule would never match. Write \\# instead.', at: i };
        break;
      }
    }
  }
  const warnings: string[] = [];
  if (!error && compiled) {
    // A lookaround matches the empty text yet filters: (?!billing@) is no catch-all.
    if (compiled.test('') && !/\(\?<?[=!]/.test(source)) warnings.push('This matches every email (it matches even an empty text).');
    if (NESTED_REPEAT.test(source)) {
      warnings.push(
        engine === 'pcre'
          ? 'A repeat inside a repeated group can take catastrophic time in MailCare’s engine (PCRE) on some subjects.'
          : 'A repeat inside a repeated group: harmless on this service (RE2 runs in linear time), but slow on backtracking engines.',
      );
    }
  }
  return { error, warnings };
}
