/**
 * What a mail-testing tool checks of a sender, from the raw headers alone:
 * the receiving server's SPF / DKIM / DMARC verdicts (Authentication-Results,
 * Received-SPF), a well-formed List-Unsubscribe and RFC 8058 one-click,
 * Message-ID, Date, Return-Path, and a text part beside the HTML. Pure.
 */
export type Verdict = 'pass' | 'warn' | 'fail';

export interface SenderCheck {
  name: string;
  verdict: Verdict;
  detail: string;
}

export interface Header {
  name: string;
  value: string;
}

const values = (headers: Header[], name: string) => headers.filter((h) => h.name.toLowerCase() === name).map((h) => h.value.replace(/\s+/g, ' ').trim());

/** A method's result in Authentication-Results (`spf=pass`), the first one found. */
function authResult(headers: Header[], method: string): string | null {
  for (const value of values(headers, 'authentication-results')) {
    const found = new RegExp(`(?:^|[;\\s])${method}=([a-z]+)`, 'i').exec(value);
    if (found) return found[1]!.toLowerCase();
  }
  return null;
}

function verdictOf(result: string | null): Verdict {
  if (result === 'pass') return 'pass';
  if (result === null || result === 'none' || result === 'neutral' || result === 'temperror') return 'warn';
  return 'fail';
}

export function senderChecks(headers: Header[], parts: { hasHtml: boolean; hasText: boolean }): SenderCheck[] {
  const checks: SenderCheck[] = [];
  const spf = authResult(headers, 'spf') ?? (/^\s*(pass|fail|softfail|neutral|none|temperror|permerror)\b/i.exec(values(headers, 'received-spf')[0] ?? '')?.[1]?.toLowerCase() ?? null);
  for (const [name, result] of [['SPF', spf], ['DKIM', authResult(headers, 'dkim')], ['DMARC', authResult(headers, 'dmarc')]] as const) {
    checks.push({ name, verdict: verdictOf(result), detail: result === null ? 'No result recorded by the receiving server.' : `${result}` });
  }

  const unsubscribe = values(headers, 'list-unsubscribe')[0];
  const uris = unsubscribe ? [...unsubscribe.matchAll(/<([^>]+)>/g)].map((m) => m[1]!.trim()) : [];
  const wellFormed = uris.length > 0 && uris.every((uri) => /^(mailto:\S+@\S+|https?:\/\/\S+)$/i.test(uri));
  checks.push({
    name: 'List-Unsubscribe',
    verdict: unsubscribe === undefined ? 'warn' : wellFormed ? 'pass' : 'fail',
    detail: unsubscribe === undefined ? 'Missing: bulk senders must offer it (Gmail, Yahoo).' : wellFormed ? uris.join(', ') : `Not a list of <mailto:…> or <https://…>: ${unsubscribe}`,
  });
  const post = values(headers, 'list-unsubscribe-post')[0];
  const oneClick = post !== undefined && /^List-Unsubscribe=One-Click$/i.test(post) && uris.some((uri) => /^https:\/\//i.test(uri));
  checks.push({
    name: 'One-click unsubscribe (RFC 8058)',
    verdict: oneClick ? 'pass' : post === undefined ? 'warn' : 'fail',
    detail: oneClick ? 'List-Unsubscribe-Post: List-Unsubscribe=One-Click, with an https URI' : post === undefined ? 'No List-Unsubscribe-Post header.' : 'Needs List-Unsubscribe=One-Click and an https:// URI in List-Unsubscribe.',
  });

  const messageId = values(headers, 'message-id')[0];
  checks.push({
    name: 'Message-ID',
    verdict: messageId === undefined ? 'fail' : /^<[^<>@\s]+@[^<>@\s]+>$/.test(messageId) ? 'pass' : 'warn',
    detail: messageId ?? 'Missing.',
  });
  const date = values(headers, 'date')[0];
  checks.push({
    name: 'Date',
    verdict: date === undefined ? 'fail' : Number.isNaN(Date.parse(date)) ? 'warn' : 'pass',
    detail: date ?? 'Missing.',
  });
  const returnPath = values(headers, 'return-path')[0];
  checks.push({ name: 'Return-Path', verdict: returnPath ? 'pass' : 'warn', detail: returnPath ?? 'Missing: bounces have nowhere to go.' });
  checks.push({
    name: 'Text part',
    verdict: !parts.hasHtml || parts.hasText ? 'pass' : 'warn',
    detail: parts.hasHtml && !parts.hasText ? 'HTML only: some clients and filters want a text part beside it.' : parts.hasText ? 'Present.' : 'Text only.',
  });
  return checks;
}
