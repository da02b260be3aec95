/**
 * A link whose visible text names one site and whose target is another is
 * how phishing mail works ("paypal.com" leading to paypal.example-login.ru).
 * Pure: the text is what the user saw, the href is where it goes.
 */
const HOST_IN_TEXT = /(?:https?:\/\/)?((?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63})(?=[/:?#\s]|$)/i;

/** The site a host belongs to, roughly: its last two labels (three for a short second-level like co.uk). */
function site(host: string): string {
  const labels = host.toLowerCase().replace(/^www\./, '').split('.');
  const secondLevel = labels.at(-2) ?? '';
  const keep = labels.length > 2 && secondLevel.length <= 3 && (labels.at(-1) ?? '').length === 2 ? 3 : 2;
  return labels.slice(-keep).join('.');
}

/** The two hosts when the text shows one site and the link goes to another; null when they agree or the text names none. */
export function linkMismatch(text: string, href: string): { shown: string; actual: string } | null {
  if (!URL.canParse(href)) return null;
  const target = new URL(href);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return null;
  const shown = HOST_IN_TEXT.exec(text.trim())?.[1];
  if (!shown) return null;
  return site(shown) === site(target.hostname) ? null : { shown: shown.toLowerCase(), actual: target.hostname.toLowerCase() };
}

/**
 * The punycode host of a link to an internationalized name (`аррӏе.com` is
 * `xn--80ak6aa92e.com`), or null for a plain ASCII one. Letters of another
 * alphabet can imitate a familiar name exactly, even when the link's text
 * agrees with its target, so such a link asks first, showing the real name.
 */
export function internationalizedHost(href: string): string | null {
  if (!URL.canParse(href)) return null;
  const target = new URL(href);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return null;
  // URL gives the host in its ASCII form: an internationalized label starts with xn--.
  return target.hostname.split('.').some((label) => label.startsWith('xn--')) ? target.hostname : null;
}

/** The question to ask before a link opens, or null when it may open at once. */
export function linkQuestion(text: string, href: string): string | null {
  const mismatch = linkMismatch(text, href);
  if (mismatch) return `This link shows ${mismatch.shown} but goes to ${mismatch.actual}.\n\nOpen ${mismatch.actual} anyway?`;
  const idn = internationalizedHost(href);
  if (idn) {
    return `This link goes to ${idn}, a name written with letters of another alphabet, which can imitate a familiar site.\n\nOpen ${idn} anyway?`;
  }
  return null;
}
