/**
 * The HTML compatibility check: which features of an email's HTML and CSS the
 * major clients lack or only partly have, from caniemail.com's data (the
 * `caniemail` package, passed in as `check` so this stays pure and a test can
 * hand it the real one). Findings are grouped per feature with the lines of
 * the HTML source they are on; each client family gets a score.
 */
import type { CompatFamily, CompatFinding, CompatReport } from '../../shared/contract.ts';
import { startTags } from '../../shared/domain/source-lines.ts';

/** The clients checked: the major families, on every platform caniemail has data for. */
export const COMPAT_CLIENTS = [
  'gmail.desktop-webmail', 'gmail.mobile-webmail', 'gmail.ios', 'gmail.android',
  'outlook.windows', 'outlook.windows-mail', 'outlook.macos', 'outlook.outlook-com', 'outlook.ios', 'outlook.android',
  'apple-mail.macos', 'apple-mail.ios',
  'yahoo.desktop-webmail', 'yahoo.ios', 'yahoo.android',
  'samsung-email.android',
  'thunderbird.macos', 'thunderbird.windows',
  'protonmail.desktop-webmail', 'protonmail.ios', 'protonmail.android',
  'fastmail.desktop-webmail',
  'hey.desktop-webmail',
  'aol.desktop-webmail', 'aol.ios', 'aol.android',
];

const FAMILY_LABELS: Record<string, string> = {
  gmail: 'Gmail',
  outlook: 'Outlook',
  'apple-mail': 'Apple Mail',
  yahoo: 'Yahoo Mail',
  'samsung-email': 'Samsung Email',
  thunderbird: 'Thunderbird',
  protonmail: 'Proton Mail',
  fastmail: 'Fastmail',
  hey: 'HEY',
  aol: 'AOL',
};

/** What caniemail answers, as far as this module reads it. */
interface Issue {
  title: string;
  notes: string[];
  support?: string;
  position?: { start: { line: number; column: number } };
}
export type CompatCheck = (options: { clients: string[]; html?: string; css?: string }) => {
  issues: { errors: Map<string, Issue[]>; warnings: Map<string, Issue[]> };
};

/** What a feature without data for a client says, so the check neither fails nor counts it. */
export const NO_DATA_NOTE = 'caniemail.com has no data for this client.';
const NO_DATA_NUMBER = '9999';

interface RawFeature {
  stats?: Record<string, Record<string, Record<string, string>>>;
  notes_by_num?: Record<string, string> | null;
}

/** A version key that sorts after every other as a string: the newest entry, repeated under it (markDataGaps). */
const NEWEST_KEY = '~newest';

/**
 * Two things in caniemail's data the package reads differently from
 * caniemail.com, put right in the package's own data object, once:
 * - It throws on a feature that has no data for a checked client (word-wrap
 *   in Gmail for iOS, mask-image in Thunderbird, …), which would end the
 *   whole check. Each such gap is marked "unknown" with a note of its own,
 *   which compatReport then reads as no data.
 * - It reads the site's "u" (support unknown) as partial support: it is
 *   marked as no data too.
 * - It takes a client's newest entry to be the last version key in string
 *   order, where the site takes the last one written: for Outlook on macOS
 *   "2016" sorts after "16.80", so calc() read as supported and webP as not.
 *   The last one written is repeated under a key that sorts last.
 * Answers how many entries it changed.
 */
export function markDataGaps(raw: { data: RawFeature[] }, clients: readonly string[] = COMPAT_CLIENTS): number {
  let marked = 0;
  for (const feature of raw.data) {
    for (const client of clients) {
      const [family, platform] = client.split('.') as [string, string];
      const stats = (feature.stats ??= {});
      const byPlatform = (stats[family] ??= {});
      if (byPlatform[platform] !== undefined) continue;
      byPlatform[platform] = { '0': `u #${NO_DATA_NUMBER}` };
      feature.notes_by_num = { ...(feature.notes_by_num ?? {}), [NO_DATA_NUMBER]: NO_DATA_NOTE };
      marked += 1;
    }
    for (const byPlatform of Object.values(feature.stats ?? {})) {
      for (const versions of Object.values(byPlatform)) {
        const keys = Object.keys(versions);
        const written = keys.at(-1);
        if (written === undefined || written === NEWEST_KEY) continue;
        if ([...keys].sort().at(-1) !== written) {
          versions[NEWEST_KEY] = versions[written]!;
          marked += 1;
        }
        // "u" is the site's "support unknown": no data, as a gap is (the package would call it partial).
        const newest = [...Object.keys(versions)].sort().at(-1)!;
        if (/^\s*u/.test(versions[newest]!) && !versions[newest]!.includes(`#${NO_DATA_NUMBER}`)) {
          versions[newest] = `${versions[newest]} #${NO_DATA_NUMBER}`;
          feature.notes_by_num = { ...(feature.notes_by_num ?? {}), [NO_DATA_NUMBER]: NO_DATA_NOTE };
          marked += 1;
        }
      }
    }
  }
  return marked;
}

/** How many lines of where a feature is used a finding keeps (a 2 MB newsletter repeats one style thousands of times). */
const LINES_KEPT = 20;

/**
 * The <style> blocks of an HTML document and the line each one's text starts
 * on; and the document with their text blanked (newlines kept), so a check of
 * it reports elements and inline styles at their own lines. Style text is raw
 * text up to the first `</style`, as the HTML tokenizer reads it. Pure.
 */
export function splitStyles(html: string): { blocks: { css: string; line: number }[]; rest: string } {
  const blocks: { css: string; line: number }[] = [];
  let line = 1;
  let last = 0;
  let rest = '';
  const open = /<style\b[^>]*>/gi;
  for (let match = open.exec(html); match; match = open.exec(html)) {
    const start = match.index + match[0].length;
    const close = html.slice(start).search(/<\/style[\s/>]/i);
    const end = close === -1 ? html.length : start + close;
    line += countLines(html, last, start);
    const css = html.slice(start, end);
    blocks.push({ css, line });
    line += countLines(html, start, end);
    rest += html.slice(last, start) + css.replace(/[^\n]/g, '');
    last = end;
    open.lastIndex = end;
  }
  rest += html.slice(last);
  return { blocks, rest };
}

/**
 * A newsletter repeats the same few start tags thousands of times, and
 * caniemail checks each one against every client (most of H's time on a 2 MB
 * newsletter). Each repeat of a start tag already seen, byte for byte, is
 * blanked to its bare name, the same length (newlines kept), so every
 * position stays where it was; what caniemail finds on the first one is then
 * found on the lines of its repeats. `repeats`: "line:column" of each first
 * one (1-based, as caniemail gives positions) to the lines of its repeats.
 */
export function collapseRepeatedTags(html: string): { html: string; repeats: Map<string, number[]> } {
  const firstOf = new Map<string, number>();
  const repeatsOf = new Map<number, number[]>();
  const parts: string[] = [];
  let copied = 0;
  for (const tag of startTags(html)) {
    // A bare tag (`<td>`) has nothing to blank: caniemail checks each anyway, and cheaply.
    if (tag.end - tag.nameEnd <= 1) continue;
    const text = html.slice(tag.start, tag.end);
    const first = firstOf.get(text);
    if (first === undefined) {
      firstOf.set(text, tag.start);
      continue;
    }
    const list = repeatsOf.get(first) ?? [];
    list.push(tag.start);
    repeatsOf.set(first, list);
    parts.push(html.slice(copied, tag.nameEnd), html.slice(tag.nameEnd, tag.end - 1).replace(/[^\r\n]/g, ' '), '>');
    copied = tag.end;
  }
  parts.push(html.slice(copied));
  // Line and column of every index involved, in one pass in order.
  const indexes = [...new Set([...repeatsOf.keys(), ...[...repeatsOf.values()].flat()])].sort((a, b) => a - b);
  const where = new Map<number, { line: number; column: number }>();
  let line = 1;
  let lineStart = 0;
  let from = 0;
  for (const index of indexes) {
    for (let i = html.indexOf('\n', from); i !== -1 && i < index; i = html.indexOf('\n', i + 1)) {
      line += 1;
      lineStart = i + 1;
    }
    from = index;
    where.set(index, { line, column: index - lineStart + 1 });
  }
  const repeats = new Map<string, number[]>();
  for (const [first, list] of repeatsOf) {
    const at = where.get(first)!;
    repeats.set(`${at.line}:${at.column}`, list.map((index) => where.get(index)!.line));
  }
  return { html: parts.join(''), repeats };
}

/** The lines of a block's CSS where an at-rule (`@font-face`, `@media`…) named by a finding's title starts. */
function atRuleLines(title: string, css: string, lineOffset: number): number[] {
  const name = /^@[a-z-]+/i.exec(title)?.[0];
  const lines = name ? linesOf(css, new RegExp(`${name}(?![a-z-])`, 'gi'), lineOffset + 1) : [];
  return lines.length > 0 ? lines : [lineOffset + 1];
}

function countLines(text: string, from: number, to: number): number {
  let lines = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) lines += 1;
  return lines;
}

/** One feature of caniemail's data as the supplement below reads it. */
export interface FeatureData {
  slug: string;
  title: string;
  stats?: Record<string, Record<string, Record<string, string>> | undefined>;
  notes_by_num?: Record<string, string> | null;
}

/**
 * Features caniemail's checker does not look for, found here and answered
 * from its own data: an inline <svg> (html-svg), and an @media block that asks
 * for a colour scheme (css-at-media-prefers-color-scheme). Each is a pattern
 * in the source and the lines it is on.
 */
const SUPPLEMENTS: { slug: string; in: 'html' | 'css' | 'style'; pattern: RegExp }[] = [
  { slug: 'html-svg', in: 'html', pattern: /<svg[\s>/]/gi },
  { slug: 'css-at-media-prefers-color-scheme', in: 'css', pattern: /@media[^{;]*prefers-color-scheme/gi },
  // caniemail's checker reports every media query as the plain @media; its data knows these by name.
  { slug: 'css-at-media-prefers-reduced-motion', in: 'css', pattern: /@media[^{;]*prefers-reduced-motion/gi },
  { slug: 'css-at-media-orientation', in: 'css', pattern: /@media[^{;]*\(\s*orientation\b/gi },
  { slug: 'css-at-media-hover', in: 'css', pattern: /@media[^{;]*\(\s*(?:any-)?hover\b/gi },
  { slug: 'css-at-media-device-pixel-ratio', in: 'css', pattern: /@media[^{;]*\(\s*(?:-webkit-)?(?:min-|max-)?device-pixel-ratio\b/gi },
  // Nor does it look into values: functions and custom properties, in <style> and in style attributes alike.
  { slug: 'css-rgb', in: 'style', pattern: /(?<![\w-])rgb\(/gi },
  { slug: 'css-rgba', in: 'style', pattern: /(?<![\w-])rgba\(/gi },
  { slug: 'css-unit-calc', in: 'style', pattern: /(?<![\w-])calc\(/gi },
  { slug: 'css-function-min', in: 'style', pattern: /(?<![\w-])min\(/gi },
  { slug: 'css-function-max', in: 'style', pattern: /(?<![\w-])max\(/gi },
  { slug: 'css-function-clamp', in: 'style', pattern: /(?<![\w-])clamp\(/gi },
  { slug: 'css-function-light-dark', in: 'style', pattern: /(?<![\w-])light-dark\(/gi },
  { slug: 'css-linear-gradient', in: 'style', pattern: /(?<![\w-])(?:repeating-)?linear-gradient\(/gi },
  { slug: 'css-radial-gradient', in: 'style', pattern: /(?<![\w-])(?:repeating-)?radial-gradient\(/gi },
  { slug: 'css-conic-gradient', in: 'style', pattern: /(?<![\w-])(?:repeating-)?conic-gradient\(/gi },
  { slug: 'css-variables', in: 'style', pattern: /(?<![\w-])var\(\s*--|(?:^|[;{\s])--[\w-]+\s*:/gi },
];

/** Each style attribute's value and the line it starts on (1-based), read once per check. */
function styleAttributes(html: string): { value: string; line: number }[] {
  const found: { value: string; line: number }[] = [];
  const attribute = /\sstyle\s*=\s*("[^"]*"|'[^']*')/gi;
  let line = 1;
  let counted = 0;
  for (let match = attribute.exec(html); match; match = attribute.exec(html)) {
    const at = match.index + match[0].length - match[1]!.length;
    line += countLines(html, counted, at);
    counted = at;
    found.push({ value: match[1]!, line });
  }
  return found;
}

/** Lines where `pattern` matches inside those values. */
function styleAttributeLines(attributes: { value: string; line: number }[], pattern: RegExp): number[] {
  const lines: number[] = [];
  for (const { value, line } of attributes) {
    pattern.lastIndex = 0;
    for (let found = pattern.exec(value); found; found = pattern.exec(value)) lines.push(line + countLines(value, 0, found.index));
  }
  return lines;
}

/** Lines (1-based, from `firstLine`) where `pattern` matches in `text`. */
function linesOf(text: string, pattern: RegExp, firstLine: number): number[] {
  const lines: number[] = [];
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) lines.push(firstLine + countLines(text, 0, match.index));
  return lines;
}

/** How a client supports a feature by its newest entry in the data: y, a (partial), n, or no data; with the notes it cites. */
function supportOf(feature: FeatureData, client: string): { kind: 'y' | 'a' | 'n' | 'u'; notes: string[] } {
  const [family, platform] = client.split('.') as [string, string];
  const versions = feature.stats?.[family]?.[platform];
  const newest = versions ? Object.values(versions).at(-1) : undefined;
  if (!newest) return { kind: 'u', notes: [] };
  const kind = (['y', 'a', 'n'] as const).find((k) => newest.trim().startsWith(k)) ?? 'u';
  const notes = [...newest.matchAll(/#(\d+)/g)].map((m) => feature.notes_by_num?.[m[1]!]).filter((n): n is string => typeof n === 'string' && n !== NO_DATA_NOTE);
  return { kind, notes };
}

/** The check of one email's HTML, grouped per feature and scored per client family. Pure but for `check` and `data`. */
/** `collapse: false` checks every tag as written (the slow way, kept for the test that holds the fast one to it). */
export function compatReport(html: string, check: CompatCheck, data?: readonly FeatureData[], options: { collapse?: boolean } = {}): CompatReport {
  const clients = [...COMPAT_CLIENTS];
  const findings = new Map<string, CompatFinding & { lineSet: Set<number> }>();
  // Where each block's at-rules are, found once (every client reports the same ones).
  const atRules = new Map<string, number[]>();
  const take = (answer: ReturnType<CompatCheck>, lineOffset: number, cssBlock: boolean, cssText = '', repeats?: Map<string, number[]>) => {
    for (const [kind, byClient] of [['none', answer.issues.errors], ['partial', answer.issues.warnings]] as const) {
      for (const [client, issues] of byClient) {
        for (const issue of issues) {
          const finding = findings.get(issue.title) ?? {
            feature: issue.title,
            unsupported: [],
            partial: [],
            noData: [],
            lines: [],
            occurrences: 0,
            notes: [],
            lineSet: new Set<number>(),
          };
          findings.set(issue.title, finding);
          const unknown = issue.notes.includes(NO_DATA_NOTE);
          const list = unknown ? finding.noData : kind === 'none' ? finding.unsupported : finding.partial;
          if (!list.includes(client)) list.push(client);
          for (const note of issue.notes) if (note !== NO_DATA_NOTE && !finding.notes.includes(note)) finding.notes.push(note);
          // CSS caniemail cannot place (an at-rule) is placed on its own lines in the block, else at the <style> line.
          const placed = `${lineOffset}|${issue.title}`;
          if (cssBlock && !issue.position && !atRules.has(placed)) atRules.set(placed, atRuleLines(issue.title, cssText, lineOffset));
          const lines = issue.position ? [issue.position.start.line + lineOffset] : cssBlock ? atRules.get(placed)! : [];
          // Found on the first of a repeated tag: found on each repeat's line too.
          if (issue.position && repeats) for (const line of repeats.get(`${issue.position.start.line}:${issue.position.start.column}`) ?? []) lines.push(line);
          for (const line of lines) {
            if (finding.lineSet.has(line)) continue;
            finding.lineSet.add(line);
            finding.occurrences += 1;
          }
        }
      }
    }
  };
  const { blocks, rest } = splitStyles(html);
  const collapsed = options.collapse === false ? { html: rest, repeats: undefined } : collapseRepeatedTags(rest);
  take(check({ clients, html: collapsed.html }), 0, false, '', collapsed.repeats);
  // A style block's CSS is checked on its own, its lines moved to where the block is.
  for (const block of blocks) if (block.css.trim()) take(check({ clients, css: block.css }), block.line - 1, true, block.css);
  let styles: { value: string; line: number }[] | undefined;
  for (const supplement of SUPPLEMENTS) {
    const feature = data?.find((f) => f.slug === supplement.slug);
    if (!feature || findings.has(feature.title)) continue;
    const inBlocks = () => blocks.flatMap((block) => linesOf(block.css, supplement.pattern, block.line));
    const lines =
      supplement.in === 'html'
        ? linesOf(rest, supplement.pattern, 1)
        : supplement.in === 'css'
          ? inBlocks()
          : [...new Set([...inBlocks(), ...styleAttributeLines((styles ??= styleAttributes(rest)), supplement.pattern)])].sort((a, b) => a - b);
    if (lines.length === 0) continue;
    const finding = { feature: feature.title, unsupported: [] as string[], partial: [] as string[], noData: [] as string[], lines: [], occurrences: lines.length, notes: [] as string[], lineSet: new Set(lines) };
    for (const client of clients) {
      const { kind, notes } = supportOf(feature, client);
      if (kind === 'n') finding.unsupported.push(client);
      else if (kind === 'a') finding.partial.push(client);
      else if (kind === 'u') finding.noData.push(client);
      for (const note of notes) if (!finding.notes.includes(note)) finding.notes.push(note);
    }
    findings.set(feature.title, finding);
  }

  // A feature no client is known to lack (only "no data" besides support) is not a finding.
  const lacking = [...findings.values()].filter((finding) => finding.unsupported.length > 0 || finding.partial.length > 0);
  const list: CompatFinding[] = lacking.map(({ lineSet, ...finding }) => ({
    ...finding,
    unsupported: finding.unsupported.sort(),
    partial: finding.partial.filter((c) => !finding.unsupported.includes(c)).sort(),
    noData: finding.noData.sort(),
    lines: [...lineSet].sort((a, b) => a - b).slice(0, LINES_KEPT),
  }));
  // Most clients lacking it first.
  list.sort((a, b) => b.unsupported.length - a.unsupported.length || b.partial.length - a.partial.length || a.feature.localeCompare(b.feature));
  return { clients, findings: list, families: familyScores(clients, list) };
}

/**
 * Per family (Gmail, Outlook, …): of the features this email uses that some
 * client lacks, the share the family's clients support, a partial support
 * counting half. 100 when nothing is lacking anywhere. Pure.
 */
export function familyScores(clients: string[], findings: CompatFinding[]): CompatFamily[] {
  const families = new Map<string, string[]>();
  for (const client of clients) {
    const family = client.split('.')[0]!;
    families.set(family, [...(families.get(family) ?? []), client]);
  }
  return [...families.entries()].map(([family, members]) => {
    let lacking = 0;
    let unsupported = 0;
    let partial = 0;
    for (const finding of findings) {
      for (const client of members) {
        if (finding.unsupported.includes(client)) {
          lacking += 1;
          unsupported += 1;
        } else if (finding.partial.includes(client)) {
          lacking += 0.5;
          partial += 1;
        }
      }
    }
    const unknown = findings.reduce((n, f) => n + members.filter((c) => f.noData.includes(c)).length, 0);
    const possible = findings.length * members.length - unknown;
    return {
      family,
      label: FAMILY_LABELS[family] ?? family,
      clients: members,
      score: possible <= 0 ? 100 : Math.round(100 * (1 - lacking / possible)),
      unsupported,
      partial,
    };
  });
}
