/**
 * The list's `subject` filter: `*` stands for any run of characters, the rest
 * is literal, case-insensitive. Matched without a regular expression, so no
 * pattern can make it backtrack: at most pattern × subject steps.
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  const p = pattern.toLowerCase();
  const t = text.toLowerCase();
  let pi = 0;
  let ti = 0;
  let star = -1;
  let resume = 0;
  while (ti < t.length) {
    if (pi < p.length && p[pi] !== '*' && p[pi] === t[ti]) {
      pi++;
      ti++;
    } else if (pi < p.length && p[pi] === '*') {
      // Collapse runs of stars; remember where to resume if the rest fails.
      while (p[pi] === '*') pi++;
      star = pi;
      resume = ti;
    } else if (star !== -1) {
      pi = star;
      ti = ++resume;
    } else {
      return false;
    }
  }
  while (p[pi] === '*') pi++;
  return pi === p.length;
}
