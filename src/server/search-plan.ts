/**
 * The pieces a search term is made into for the trigram index (FTS5, trigram
 * tokenizer): a phrase, or, for a longer term, its two rarest trigrams,
 * whose hits are then checked (TeamStore.searchMatch, which keeps the
 * statistic of how many emails hold each trigram).
 */

/** A phrase for the trigram index: matches the (folded) term anywhere. */
export function searchPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

/** The distinct three-character runs of a term, as the trigram tokenizer cuts them. */
export function trigramsOf(term: string): string[] {
  const chars = [...term];
  const runs = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++) runs.add(chars.slice(i, i + 3).join(''));
  return [...runs];
}

/** How many of a term's trigrams a search asks the index for: the rarest. */
export const TRIGRAMS_ASKED = 2;
