/** The keyboard cursor in a list (emails, rules): one rule for every list. */

/** Where the selection goes when `delta` rows away; stays inside the page. Pure. */
export function nextSelection(ids: string[], current: string | null, delta: number): string | null {
  if (ids.length === 0) return null;
  const index = current === null ? -1 : ids.indexOf(current);
  if (index === -1) return delta >= 0 ? ids[0]! : ids[ids.length - 1]!;
  return ids[Math.min(ids.length - 1, Math.max(0, index + delta))]!;
}
