/**
 * Unicode simple case folding (CaseFolding.txt, statuses C and S), code point
 * by code point, as ECMAScript's `/…/iu` compares letters: "ÉTÉ" and "été",
 * "ΣΟΦΊΑ" and "σοφία" (and its final ς), "ẞ" and "ß" fold alike; "ß" does not
 * become "ss" and dotless "ı" stays itself, as in the standard. Search folds
 * both the stored text and the term with it, so the indexed and the scanned
 * paths agree on every letter (SQLite's lower() folds ASCII only).
 */

// eslint-disable-next-line no-control-regex -- every ASCII character, control characters included
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const folded = new Map<string, string>();

const isOneCodePoint = (text: string): boolean => text.length === 1 || (text.length === 2 && text.codePointAt(0)! > 0xffff);

/**
 * One code point's fold, from the engine's own case mappings: through its
 * upper case first (ς → Σ → σ, ſ → S → s, ϐ → Β → β), keeping a code point
 * whose mapping is more than one (İ, ŉ). U+0131 ı has no folding in Unicode,
 * but its upper case is I: it alone would go wrong that way.
 */
function foldCodePoint(char: string): string {
  if (char === '\u0131') return char;
  const upper = char.toUpperCase();
  const lower = (isOneCodePoint(upper) ? upper : char).toLowerCase();
  if (isOneCodePoint(lower)) return lower;
  const own = char.toLowerCase();
  return isOneCodePoint(own) ? own : char;
}

export function foldCase(text: string): string {
  if (ASCII_ONLY.test(text)) return text.toLowerCase();
  let out = '';
  for (const char of text) {
    let fold = folded.get(char);
    if (fold === undefined) {
      fold = foldCodePoint(char);
      if (folded.size < 50_000) folded.set(char, fold);
    }
    out += fold;
  }
  return out;
}
