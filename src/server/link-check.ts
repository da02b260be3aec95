/**
 * Checks an email's links and images on request (never before: nothing in
 * an email is fetched until the user asks). Each URL is resolved and, when it
 * is on this machine or a private network, asked for only with consent (main
 * asks the user; the catcher's Mailpit API, its --allow-private-webhooks);
 * then HEAD (GET when HEAD is refused), redirects followed up to a limit and
 * kept (or not followed, as Mailpit's follow=false), a timeout, a few at a
 * time, never with the account's token.
 */
import type { LinkCheck } from '../shared/contract.ts';
import { htmlTextAndLinks, linksOfText } from '../shared/domain/mail-insights.ts';
import { probeTarget, resolveWebhookTarget } from './webhook-target.ts';

export const LINK_CHECK = { timeoutMs: 8000, redirects: 5, atOnce: 4, max: 100 } as const;

/** Every http(s) link and image of an email, once each, links first. */
export function urlsOf(html: string | null, text: string | null): { url: string; kind: 'link' | 'image'; text: string }[] {
  const found: { url: string; kind: 'link' | 'image'; text: string }[] = [];
  const seen = new Set<string>();
  const add = (url: string, kind: 'link' | 'image', label: string) => {
    if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) return;
    const normal = new URL(url).href;
    if (seen.has(normal)) return;
    seen.add(normal);
    found.push({ url: normal, kind, text: label });
  };
  if (html) {
    for (const link of htmlTextAndLinks(html).links) add(link.url, 'link', link.text);
    for (const match of html.matchAll(/<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) add((match[1] ?? match[2] ?? match[3] ?? '').trim(), 'image', '');
  }
  if (text) for (const link of linksOfText(text)) add(link.url, 'link', link.text);
  return found.slice(0, LINK_CHECK.max);
}

/** Status 0 with this error: a private address, not asked for. */
export const PRIVATE_NOT_ALLOWED = 'Not checked: on this machine or a private network, and that was not allowed.';

async function checkOne(url: string, mayReachPrivate: (origin: string) => Promise<boolean>, follow: boolean): Promise<Omit<LinkCheck, 'kind' | 'text'>> {
  const began = performance.now();
  const redirects: string[] = [];
  let current = url;
  const done = (result: Partial<LinkCheck> & { status: number }) => ({ url, redirects, finalUrl: current, ms: Math.round(performance.now() - began), ...result });
  for (let hop = 0; hop <= LINK_CHECK.redirects; hop++) {
    let target;
    try {
      target = await resolveWebhookTarget(current, { allowPrivate: true });
    } catch {
      return done({ status: 0, error: `Cannot find ${new URL(current).host}.` });
    }
    if (target.private && !(await mayReachPrivate(target.url.origin))) {
      return done({ status: 0, error: PRIVATE_NOT_ALLOWED });
    }
    let answer;
    try {
      answer = await probeTarget(target, 'HEAD', LINK_CHECK);
      if (answer.status === 405 || answer.status === 501) answer = await probeTarget(target, 'GET', LINK_CHECK);
    } catch (error) {
      const name = (error as { name?: string }).name;
      return done({ status: 0, error: name === 'TimeoutError' || name === 'AbortError' ? `No answer within ${LINK_CHECK.timeoutMs / 1000} s.` : `Could not reach ${target.url.host}.` });
    }
    if (follow && answer.status >= 300 && answer.status < 400 && answer.location) {
      redirects.push(`${answer.status} → ${answer.location}`);
      current = new URL(answer.location, current).href;
      continue;
    }
    return done({ status: answer.status });
  }
  return done({ status: 0, error: `More than ${LINK_CHECK.redirects} redirects.` });
}

/** Checks them a few at a time; answers in the order they were given. */
export async function checkLinks(
  urls: { url: string; kind: 'link' | 'image'; text: string }[],
  mayReachPrivate: (origin: string) => Promise<boolean>,
  { follow = true }: { follow?: boolean } = {},
): Promise<LinkCheck[]> {
  const results: LinkCheck[] = new Array(urls.length);
  let next = 0;
  // Consent is asked once per origin, not once per link to it.
  const asked = new Map<string, Promise<boolean>>();
  const consent = (origin: string) => {
    if (!asked.has(origin)) asked.set(origin, mayReachPrivate(origin));
    return asked.get(origin)!;
  };
  const worker = async () => {
    while (next < urls.length) {
      const at = next++;
      const item = urls[at]!;
      results[at] = { ...item, ...(await checkOne(item.url, consent, follow)) };
    }
  };
  await Promise.all(Array.from({ length: Math.min(LINK_CHECK.atOnce, urls.length) }, worker));
  return results;
}

/** As the app lists them: the broken first, then redirects, then the good, each in the email's order (a stable sort). */
export function brokenFirst(results: LinkCheck[]): LinkCheck[] {
  const rank = (r: LinkCheck) => (r.status === 0 || r.status >= 400 ? 0 : r.redirects.length > 0 ? 1 : 2);
  return [...results].sort((a, b) => rank(a) - rank(b));
}
