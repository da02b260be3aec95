/**
 * Mailpit's tag names, as its tools.CleanTag and sortedUniqueTags make them:
 * any character but letters, digits, `-`, `_`, `.`, `@` and space becomes a
 * space, runs of spaces one, trimmed, at most 100 characters; a list keeps one
 * of each name whatever its case, sorted.
 */
export function cleanTag(name: string): string {
  return name.replace(/[^a-zA-Z0-9\-_.@ ]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 100);
}

export function cleanTags(names: readonly unknown[]): string[] {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const name of names) {
    const tag = typeof name === 'string' ? cleanTag(name) : '';
    if (tag === '' || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  // Go's sort.Strings: by code unit, capitals first.
  return tags.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The tags a message names in its X-Tags header (comma-separated), as Mailpit reads them when it stores it. */
export function tagsInHeader(raw: Buffer): string[] {
  // The header ends at the first empty line, CRLF or bare LF; a message without one is all header.
  // Only its first 64 KB are read: a 25 MB message's end is never scanned for it.
  const start = raw.subarray(0, 64 * 1024);
  const ends = [start.indexOf('\r\n\r\n'), start.indexOf('\n\n')].filter((at) => at !== -1);
  const head = start.subarray(0, ends.length > 0 ? Math.min(...ends) : start.length).toString('latin1');
  const found = /^x-tags:[ \t]*(.*(?:\r?\n[ \t].*)*)/im.exec(head);
  return found ? cleanTags(found[1]!.replace(/\r?\n[ \t]/g, ' ').split(',')) : [];
}
