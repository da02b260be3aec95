/**
 * The HTML compatibility check: which features of an email's HTML and CSS the
 * major clients lack or only partly have, from caniemail.com's data (the
 * `caniemail` package, passed in as `check` so this stays pure and a test can
 * hand it the real one). Findings are grouped per feature with the lines of
 * the HTML source they are on; each client family gets a score.
 */
import type { CompatFamily, CompatFinding, CompatReport } from '../../shared/contract.ts';

/** The clients checked: the major families, on every platform caniemail has data for. */
export const COMPAT_CLIENTS = [
  'gmail.desktop-webmail', 'gmail.mobile-webmail', 'gmail.ios', 'gmail.android',
  'outlook.windows', 'outlook.windows-mail', 'outlook.macos', 'outlook.outlook-com', 'outlook.ios', 'outlook.android',
  'apple-mail.macos', 'apple-mail.ios',
  'yahoo.desktop-webmail', 'yahoo.ios', 'yahoo.android',
  'samsung-email.android',
  'thunderbird.macos',
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

/**
 * caniemail throws on a feature that has no data for a checked client (word-wrap
 * in Gmail for iOS, mask-image in Thunderbird, …), which would end the whole
 * check. Each such gap is marked in the package's own data object, once, as
 * "unknown" with a note of its own, which compatReport then reads as no data.
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

function countLines(text: string, from: number, to: number): number {
  let lines = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) lines += 1;
  return lines;
}

/** The check of one email's HTML, grouped per feature and scored per client family. Pure but for `check`. */
export function compatReport(html: string, check: CompatCheck): CompatReport {
  const clients = [...COMPAT_CLIENTS];
  const findings = new Map<string, CompatFinding & { lineSet: Set<number> }>();
  const take = (answer: ReturnType<CompatCheck>, lineOffset: number, cssBlock: boolean) => {
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
          // CSS caniemail cannot place (an @media rule) is placed at its <style> block.
          const line = issue.position ? issue.position.start.line + lineOffset : cssBlock ? lineOffset + 1 : null;
          if (line !== null && !finding.lineSet.has(line)) {
            finding.lineSet.add(line);
            finding.occurrences += 1;
          }
        }
      }
    }
  };
  const { blocks, rest } = splitStyles(html);
  take(check({ clients, html: rest }), 0, false);
  // A style block's CSS is checked on its own, its lines moved to where the block is.
  for (const block of blocks) if (block.css.trim()) take(check({ clients, css: block.css }), block.line - 1, true);

  const list: CompatFinding[] = [...findings.values()].map(({ lineSet, ...finding }) => ({
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
