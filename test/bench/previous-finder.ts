/**
 * The code and link finder as it was before issue 32 (commit e613567), kept
 * verbatim as the bench's baseline: the new finder's figures on the corpus are
 * quoted against it. Not used by the app.
 */
/**
 * What a QA engineer pulls out of a transactional email by hand: the one-time
 * code (sign-up, login, 2FA) and the main call to action (reset, confirm,
 * magic link). Pure: the subject, the text and the links are handed in.
 */

/** Words a code sits near, in the languages transactional mail is sent in most. */
const CODE_WORDS = [
  'code', 'codes', 'verification', 'verify', 'otp', 'one-time', 'one time', 'passcode', 'pin', 'token', 'security code', 'login code',
  'bestätigungscode', 'code de vérification', 'code de confirmation', 'código', 'codigo', 'verificación', 'codice', 'verifica',
  'kod', 'weryfikacyjny', 'verificatiecode', 'код', 'подтверждения', '認証コード', '验证码', '인증',
];
const CODE_WORD = new RegExp(`(${CODE_WORDS.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'giu');
/** 4 to 8 digits, or 4 to 8 capitals and digits with at least one digit; one space or dash may split a digit code in two. */
const CODE = /(?<![\p{L}\p{N}/.:#-])(\d{3,4}[ -]\d{3,4}|\d{4,8}|(?=[A-Z0-9]*\d)[A-Z0-9]{4,8})(?![\p{L}\p{N}/-]|\.\d)/gu;
/** How far from its word a code may be, in characters. */
const NEAR = 80;

export interface FoundCode {
  code: string;
  /** Where it was: the subject or the body. */
  in: 'subject' | 'body';
}

function looksLikeYearOrNoise(candidate: string, text: string, at: number): boolean {
  // A year, a time or a price near the word "code" is not the code.
  if (/^(19|20)\d\d$/.test(candidate)) return true;
  const before = text.slice(Math.max(0, at - 2), at);
  const after = text.slice(at + candidate.length, at + candidate.length + 2);
  return /[$€£]$/.test(before) || /^:\d|^%/.test(after);
}

function codeIn(text: string): string | null {
  let best: { code: string; distance: number } | null = null;
  const words = [...text.matchAll(CODE_WORD)].map((m) => ({ start: m.index!, end: m.index! + m[0].length }));
  if (words.length === 0) return null;
  for (const match of text.matchAll(CODE)) {
    const candidate = match[1]!;
    const at = match.index!;
    if (looksLikeYearOrNoise(candidate, text, at)) continue;
    for (const word of words) {
      // Codes follow their word mostly ("Your code: 123456"); before it counts a little more ("123456 is your code").
      const distance = at >= word.end ? at - word.end : word.start - (at + candidate.length);
      if (distance < 0 || distance > NEAR) continue;
      const weighted = at >= word.end ? distance : distance * 1.5 + 5;
      if (!best || weighted < best.distance) best = { code: candidate.replace(/[ -]/g, ''), distance: weighted };
    }
  }
  return best?.code ?? null;
}

/** The one-time code of an email, from its subject first, else its body text. */
export function findCode(subject: string, text: string): FoundCode | null {
  const inSubject = codeIn(subject);
  if (inSubject) return { code: inSubject, in: 'subject' };
  const inBody = codeIn(text);
  return inBody ? { code: inBody, in: 'body' } : null;
}

export interface EmailLink {
  url: string;
  /** The link's visible text. */
  text: string;
}

/** What the main button of a transactional email says or points at. */
const ACTION = /\b(reset|verify|verification|confirm|activate|sign[ -]?in|log[ -]?in|magic|accept|set (up )?(your )?password|get started|complete|validate)\b|bestätig|zurücksetzen|anmelden|confirmar|verificar|restablecer|iniciar sesión|confirmer|vérifier|réinitialiser|connexion|conferma|verifica|accedi|bevestig|потвердить|подтверд|войти|确认|验证|確認/iu;
/** Links that are never the point of the email. */
const FURNITURE = /unsubscribe|abmelden|désabonner|desuscribir|preferences|privacy|datenschutz|terms|help|support|facebook|twitter|instagram|linkedin|youtube|mailto:|view (it )?in (your )?browser|im browser/iu;

/** The email's call to action: the first link whose text or address says reset/confirm/sign in, not its footer. */
export function findActionLink(links: EmailLink[]): EmailLink | null {
  // A link no browser could open (https://[x]/…) is no main link: it would only be copied to fail.
  const candidates = links.filter((link) => /^https?:\/\//i.test(link.url) && URL.canParse(link.url) && !FURNITURE.test(`${link.text} ${link.url}`));
  return candidates.find((link) => ACTION.test(link.text)) ?? candidates.find((link) => ACTION.test(link.url)) ?? null;
}

/** How much of a link's text, or of the words around a bare address, labels it. */
const LABEL_CHARS = 120;

const ENTITIES: Record<string, string> = { nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

/**
 * An HTML body's text and links, read without a DOM: a hostile body (deep
 * nesting, huge) costs one linear pass, never a parse. Style and script
 * blocks are skipped; each <a href> gives its address and its text.
 */
export function htmlTextAndLinks(html: string): { text: string; links: EmailLink[] } {
  const lower = html.toLowerCase();
  let cleaned = '';
  let at = 0;
  const blocks = /<(style|script)\b/g;
  for (;;) {
    blocks.lastIndex = at;
    const found = blocks.exec(lower);
    if (found === null) {
      cleaned += html.slice(at);
      break;
    }
    const start = found.index;
    const tag = lower.startsWith('<style', start) ? 'style' : 'script';
    const end = lower.indexOf(`</${tag}`, start);
    cleaned += html.slice(at, start);
    if (end === -1) break;
    at = lower.indexOf('>', end) + 1 || html.length;
  }
  const links: EmailLink[] = [];
  const cleanedLower = cleaned.toLowerCase();
  let from = 0;
  for (;;) {
    const open = cleanedLower.indexOf('<a', from);
    if (open === -1) break;
    const tagEnd = cleaned.indexOf('>', open);
    if (tagEnd === -1) break;
    const close = cleanedLower.indexOf('</a', tagEnd);
    // No closing tag further on: no later link can close either.
    if (close === -1) break;
    const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(cleaned.slice(open, tagEnd + 1));
    if (href && /^<a[\s>]/i.test(cleaned.slice(open, open + 3))) {
      const url = decodeEntities((href[1] ?? href[2] ?? href[3] ?? '').trim());
      links.push({ url, text: decodeEntities(cleaned.slice(tagEnd + 1, Math.min(close, tagEnd + 1 + LABEL_CHARS * 4)).replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim().slice(0, LABEL_CHARS) });
    }
    from = close + 3;
  }
  const text = decodeEntities(cleaned.replace(/<br\s*\/?>|<\/(p|div|tr|li|h\d)>/gi, '\n').replace(/<[^>]*>/g, ' ')).replace(/[ \t]+/g, ' ');
  return { text, links };
}

/** The links of a text body: bare URLs, with the text of their line as their label. */
export function linksOfText(text: string): EmailLink[] {
  const links: EmailLink[] = [];
  for (const line of text.split(/\r?\n/)) {
    for (const match of line.matchAll(/https?:\/\/[^\s<>"')\]]+/g)) {
      // The words around the address label it; a line of a few thousand characters is not a label.
      const at = match.index;
      const label = `${line.slice(Math.max(0, at - LABEL_CHARS), at)} ${line.slice(at + match[0].length, at + match[0].length + LABEL_CHARS)}`;
      links.push({ url: match[0].replace(/[.,;]+$/, ''), text: label.trim() });
    }
  }
  return links;
}
