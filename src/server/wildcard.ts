/**
 * The list's `subject` filter: `*` stands for any run of characters, the rest
 * is literal, case-folded as search is (case-fold.ts), and the whole subject must match. Matched in
 * linear time: the pattern is cut at its stars, the first piece must begin
 * the subject and the last end it, and each piece between is found leftmost
 * (Knuth-Morris-Pratt) after the one before. Leftmost is always right for
 * stars, so no choice is ever revisited: at most subject + pattern steps.
 */

import { foldCase } from './case-fold.ts';

/** The longest `subject` filter the service takes (longer: 422). */
export const WILDCARD_LIMIT = 200;

/** Where `needle` first occurs in `text` between `from` and `to`, or -1: linear in both. */
function indexWithin(text: string, needle: string, from: number, to: number): number {
  if (needle.length === 0) return from;
  const fallback = new Int32Array(needle.length);
  for (let i = 1, k = 0; i < needle.length; i++) {
    while (k > 0 && needle[i] !== needle[k]) k = fallback[k - 1]!;
    if (needle[i] === needle[k]) k++;
    fallback[i] = k;
  }
  for (let i = from, k = 0; i < to; i++) {
    while (k > 0 && text[i] !== needle[k]) k = fallback[k - 1]!;
    if (text[i] === needle[k]) k++;
    if (k === needle.length) return i - needle.length + 1;
  }
  return -1;
}

export function wildcardMatch(pattern: string, text: string): boolean {
  const pieces = foldCase(pattern).split('*');
  const subject = foldCase(text);
  if (pieces.length === 1) return subject === pieces[0];
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (subject.length < first.length + last.length || !subject.startsWith(first) || !subject.endsWith(last)) return false;
  let at = first.length;
  const end = subject.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = indexWithin(subject, piece, at, end);
    if (found === -1) return false;
    at = found + piece.length;
  }
  return true;
}

/** The longest piece between stars, folded, for the folded subject column to narrow the rows first. */
export function longestPiece(pattern: string): string {
  return foldCase(pattern)
    .split('*')
    .reduce((a, b) => (b.length > a.length ? b : a), '');
}
