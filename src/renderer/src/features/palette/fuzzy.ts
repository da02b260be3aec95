/**
 * Fuzzy matching for the command palette: every typed character must appear
 * in order; earlier, adjacent and word-start matches rank higher. Pure.
 */
export function fuzzyScore(query: string, text: string): number | null {
  const q = query.trim().toLowerCase();
  if (q === '') return 0;
  const t = text.toLowerCase();
  let score = 0;
  let at = -1;
  for (const char of q) {
    if (char === ' ') continue;
    const found = t.indexOf(char, at + 1);
    if (found === -1) return null;
    score += found === at + 1 ? 3 : 1;
    if (found === 0 || /[\s/:(-]/.test(t[found - 1]!)) score += 2;
    score -= Math.min(found - at - 1, 5) * 0.1;
    at = found;
  }
  return score;
}

export function rank<T>(items: T[], query: string, text: (item: T) => string): T[] {
  return items
    .map((item, index) => ({ item, index, score: fuzzyScore(query, text(item)) }))
    .filter((entry): entry is { item: T; index: number; score: number } => entry.score !== null)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.item);
}
