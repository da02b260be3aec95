/**
 * Content negotiation on the Accept header (RFC 9110 §12.5.1): q-values,
 * `type/*` and `*\/*` ranges, the most specific range deciding a type's q.
 * `offered` is in the server's order of preference, which breaks ties.
 */
interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [mediaType = '', ...params] = part.trim().split(';');
    const [type, subtype] = mediaType.trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.trim().split('=');
      if (name?.trim().toLowerCase() === 'q' && value !== undefined) {
        const parsed = Number(value.trim());
        q = Number.isFinite(parsed) ? Math.min(1, Math.max(0, parsed)) : 0;
      }
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

function qualityOf(offer: string, ranges: MediaRange[]): number {
  const [type, subtype] = offer.toLowerCase().split('/');
  let best: { specificity: number; q: number } | null = null;
  for (const range of ranges) {
    let specificity: number;
    if (range.type === type && range.subtype === subtype) specificity = 2;
    else if (range.type === type && range.subtype === '*') specificity = 1;
    else if (range.type === '*' && range.subtype === '*') specificity = 0;
    else continue;
    if (best === null || specificity > best.specificity) best = { specificity, q: range.q };
  }
  return best?.q ?? 0;
}

/** The offered type to answer with, or null when nothing acceptable is offered. */
export function negotiate(acceptHeader: string | undefined, offered: readonly string[]): string | null {
  const ranges = parseAccept(acceptHeader && acceptHeader.trim() !== '' ? acceptHeader : '*/*');
  let chosen: string | null = null;
  let chosenQ = 0;
  for (const offer of offered) {
    const q = qualityOf(offer, ranges);
    if (q > chosenQ) {
      chosen = offer;
      chosenQ = q;
    }
  }
  return chosen;
}

/**
 * Laravel's Request::prefers, which MailCare's EmailResponse uses: the Accept
 * entries by quality (ties in their order), and for each the first offered
 * type it matches (`*\/*` takes the first offered; `application/json` also
 * matches a `+json` type); null when none does, or when there is no Accept.
 */
export function laravelPrefers(acceptHeader: string | undefined, offered: readonly string[]): string | null {
  const entries = (acceptHeader ?? '')
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim().split('=')).find(([name]) => name?.toLowerCase() === 'q')?.[1];
      return { type: type.trim().toLowerCase(), q: q === undefined ? 1 : Number(q) || 0, index };
    })
    .filter((entry) => entry.type !== '' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { type: accept } of entries) {
    if (accept === '*/*' || accept === '*') return offered[0] ?? null;
    for (const offer of offered) {
      const type = offer.toLowerCase();
      // Request::matchesType: the offered type's parts, as `main/.+\+sub`, found in the Accept entry.
      const [main, sub] = type.split('/');
      const suffixMatch = sub !== undefined && new RegExp(`${escapeRegExp(main!)}/.+\\+${escapeRegExp(sub)}`).test(accept);
      if (type === accept || suffixMatch || accept === `${main}/*`) return offer;
    }
  }
  return null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
