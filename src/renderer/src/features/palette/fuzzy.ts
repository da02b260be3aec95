/**
 * Matching for the command palette, as VS Code's and Superhuman's palettes
 * match: a title that starts with what was typed comes first, then one that
 * holds it at the start of a word, then one whose words each typed word
 * starts (in any order: "link check" finds "Check every link"), then one that
 * holds it anywhere; letters scattered in order come last, and never above any
 * of those. Within a kind, the earlier in the title, the better. Pure.
 */

const TIER = { prefix: 5, wordStart: 4, everyWord: 3, anywhere: 2, scattered: 1 } as const;

/** Where words start in `text`: its first letter, and any letter or digit after something that is neither. */
function wordStarts(text: string): number[] {
  const starts: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (/[\p{L}\p{N}]/u.test(text[i]!) && (i === 0 || !/[\p{L}\p{N}]/u.test(text[i - 1]!))) starts.push(i);
  }
  return starts;
}

/** The old scatter score: every character in order, adjacent and word-start ones counting more. */
function scatter(q: string, t: string): number | null {
  let score = 0;
  let at = -1;
  for (const char of q) {
    if (char === ' ') continue;
    const found = t.indexOf(char, at + 1);
    if (found === -1) return null;
    score += found === at + 1 ? 3 : 1;
    if (found === 0 || /[\s/:(.-]/.test(t[found - 1]!)) score += 2;
    score -= Math.min(found - at - 1, 5) * 0.1;
    at = found;
  }
  return score;
}

/** How well `query` matches `text` (higher is better), or null for no match; the tier is `Math.floor(score / 1000)`. */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.trim().toLowerCase().replace(/\s+/g, ' ');
  if (q === '') return 0;
  const t = text.toLowerCase();
  // Earlier is better, and a shorter title (nearer to just what was typed) breaks the rest of a tie.
  const near = (position: number) => 900 - Math.min(position, 400) * 2 - Math.min(t.length, 100);
  if (t.startsWith(q)) return TIER.prefix * 1000 + near(0);
  const starts = wordStarts(t);
  const atStart = starts.find((start) => t.startsWith(q, start));
  if (atStart !== undefined) return TIER.wordStart * 1000 + near(atStart);
  // Words as typed, without the marks around them ("phone/tablet", ".eml").
  const words = q.split(/[\s/,]+/).map((word) => word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')).filter(Boolean);
  if (words.length > 1 || (words.length === 1 && words[0] !== q)) {
    const found = words.map((word) => starts.find((start) => t.startsWith(word, start)));
    if (found.every((at) => at !== undefined)) return TIER.everyWord * 1000 + near(found.reduce<number>((sum, at) => sum + at!, 0) / words.length);
  }
  const anywhere = t.indexOf(q);
  if (anywhere !== -1) return TIER.anywhere * 1000 + near(anywhere);
  const scattered = scatter(q, t);
  return scattered === null ? null : TIER.scattered * 1000 + Math.max(0, Math.min(999, 500 + scattered * 10));
}

/**
 * The items that match, best first. `prefer` breaks ties within a kind of match
 * (the palette: commands that run now before those that cannot); the kind of
 * match always comes first.
 */
export function rank<T>(items: T[], query: string, text: (item: T) => string, prefer: (item: T) => number = () => 0): T[] {
  return items
    .map((item, index) => ({ item, index, score: fuzzyScore(query, text(item)) }))
    .filter((entry): entry is { item: T; index: number; score: number } => entry.score !== null)
    .sort((a, b) => Math.floor(b.score / 1000) - Math.floor(a.score / 1000) || prefer(b.item) - prefer(a.item) || b.score - a.score || a.index - b.index)
    .map((entry) => entry.item);
}
