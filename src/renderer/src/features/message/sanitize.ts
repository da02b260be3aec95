import DOMPurify from 'dompurify';
import { LruCache } from '../../../../shared/lru.ts';
import { measureHtml, type HtmlMeasure } from './html-measure.ts';

/**
 * Email HTML is hostile until this has run. Scripts, handlers, forms, frames,
 * base/meta/link and `javascript:` URLs go; links keep only web and mailto
 * targets, and carry them in `data-href` so nothing in the email can navigate
 * its frame; remote images and every CSS construct that can load a URL are
 * held back until the user asks; fixed and sticky positioning goes (no
 * overlay can sit over the text).
 */
export interface SanitizedEmail {
  html: string;
  /** How many remote resources were held back. */
  blockedRemote: number;
}

export type SanitizeOutcome = ({ ok: true } & SanitizedEmail) | { ok: false; measure: HtmlMeasure; reason: string };

const FORBID_TAGS = [
  'script', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'frame', 'frameset',
  'object', 'embed', 'applet', 'base', 'meta', 'link', 'svg', 'math', 'audio', 'video', 'source', 'track',
  'portal', 'noscript', 'template',
];
const FORBID_ATTR = ['srcset', 'action', 'formaction', 'background', 'ping', 'poster', 'xlink:href'];
const REMOTE = /^(?:https?:)?\/\//i;
const SAFE_LINK = /^(?:https?:|mailto:)/i;
/** CSS functions that fetch something. The browser's parser has already decoded escapes. */
const LOADS = /\b(?:url|image-set|-webkit-image-set|image|cross-fade|element|src)\(/i;
const URL_IN_CSS = /url\(\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^)\s]*))\s*\)/gi;

type Count = (n?: number) => void;

/** Keeps a declaration's URLs only when each is an inline image, or remote and allowed. */
function urlsAllowed(value: string, allowRemote: boolean): { ok: boolean; remote: number } {
  let remote = 0;
  let ok = true;
  for (const match of value.matchAll(URL_IN_CSS)) {
    const url = (match[1] ?? match[2] ?? match[3] ?? '').trim();
    if (/^data:image\//i.test(url)) continue;
    remote += 1;
    if (!(allowRemote && /^https?:\/\//i.test(url))) ok = false;
  }
  // A loading function whose target is no url(…) (a bare string, say): only with remote content allowed.
  if (remote === 0 && LOADS.test(value.replace(URL_IN_CSS, ''))) {
    remote += 1;
    if (!allowRemote) ok = false;
  }
  return { ok, remote };
}

/** Cleans one parsed declaration block in place; answers whether it took anything out. */
function cleanStyle(style: CSSStyleDeclaration, allowRemote: boolean, count: Count): boolean {
  let removed = false;
  for (let i = style.length - 1; i >= 0; i--) {
    const name = style.item(i);
    const value = style.getPropertyValue(name);
    if (name === 'position' && /fixed|sticky/i.test(value)) {
      style.removeProperty(name);
      removed = true;
      continue;
    }
    if (!LOADS.test(value)) continue;
    const verdict = urlsAllowed(value, allowRemote);
    if (!verdict.ok) {
      style.removeProperty(name);
      removed = true;
      count(verdict.remote);
    }
  }
  return removed;
}

/** Rules are rebuilt from the browser's own parse: what it cannot parse never reaches the frame. */
function cleanRules(rules: CSSRuleList, allowRemote: boolean, count: Count): string[] {
  const kept: string[] = [];
  for (const rule of Array.from(rules)) {
    if (rule instanceof CSSStyleRule) {
      cleanStyle(rule.style, allowRemote, count);
      kept.push(rule.cssText);
    } else if (rule instanceof CSSFontFaceRule) {
      const verdict = urlsAllowed(rule.style.getPropertyValue('src'), allowRemote);
      if (verdict.ok) kept.push(rule.cssText);
      else count(verdict.remote);
    } else if (rule instanceof CSSKeyframesRule) {
      for (const frame of Array.from(rule.cssRules)) cleanStyle((frame as CSSKeyframeRule).style, allowRemote, count);
      kept.push(rule.cssText);
    } else if (rule instanceof CSSMediaRule || rule instanceof CSSSupportsRule) {
      const inner = cleanRules(rule.cssRules, allowRemote, count);
      const condition = rule instanceof CSSMediaRule ? `@media ${rule.media.mediaText}` : `@supports ${rule.conditionText}`;
      kept.push(`${condition}{${inner.join('')}}`);
    } else if (rule instanceof CSSImportRule) {
      count();
    }
    // Anything else (@namespace, @layer, @property, @page …) is left out.
  }
  return kept;
}

/** `@import` never survives a constructed sheet; count the ones the email had. */
function importsIn(css: string): number {
  const decoded = css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\\([0-9a-f]{1,6})\s?/gi, (_m, hex: string) => String.fromCodePoint(parseInt(hex, 16) || 0xfffd));
  return (decoded.match(/@import\b/gi) ?? []).length;
}

function cleanStylesheet(css: string, allowRemote: boolean, count: Count): string {
  const sheet = new CSSStyleSheet();
  try {
    sheet.replaceSync(css);
  } catch {
    return '';
  }
  count(importsIn(css));
  return cleanRules(sheet.cssRules, allowRemote, count).join('\n');
}

/** True when the HTML shows images carried inside the email (cid:), which main must resolve first. */
export function hasInlineImages(html: string): boolean {
  return /src\s*=\s*["']?\s*cid:/i.test(html);
}

let purifier: ReturnType<typeof DOMPurify> | null = null;

export function sanitizeEmailHtml(dirty: string, options: { allowRemote: boolean; inline?: Record<string, string> }): SanitizeOutcome {
  const measure = measureHtml(dirty);
  if (measure.verdict !== 'ok') return { ok: false, measure, reason: measure.verdict };

  // One instance, its hooks set for this call: making an instance costs more than a short email.
  purifier ??= DOMPurify(window);
  const purify = purifier;
  purify.removeAllHooks();
  // A document without a browsing context: parsing a style attribute here loads nothing.
  const scratch = document.implementation.createHTMLDocument('').createElement('div');
  let blocked = 0;
  const cleanedStyles = new Map<string, { cleaned: string; blocked: number }>();
  const count: Count = (n = 1) => {
    blocked += n;
  };
  // cid: is no protocol DOMPurify keeps: swap in the email's own image before it looks.
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName !== 'src') return;
    const cid = /^\s*cid:(.+)$/i.exec(data.attrValue)?.[1]?.trim().replace(/^<|>$/g, '');
    if (cid === undefined) return;
    const url = options.inline?.[cid] ?? options.inline?.[decodeURIComponent(cid)];
    data.attrValue = url && /^data:image\//i.test(url) ? url : '';
  });
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style') node.textContent = cleanStylesheet(node.textContent ?? '', options.allowRemote, count);
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    const element = node as Element;
    if (element.hasAttribute('style')) {
      const original = element.getAttribute('style') ?? '';
      // Newsletters repeat the same few style attributes on every cell: each is parsed once.
      let done = cleanedStyles.get(original);
      if (done) {
        count(done.blocked);
      } else {
        const before = blocked;
        scratch.setAttribute('style', original);
        // Nothing taken out: the original stands (the frame parses it into the very same declarations).
        const cleaned = cleanStyle(scratch.style, options.allowRemote, count) ? (scratch.getAttribute('style') ?? '') : original;
        done = { cleaned, blocked: blocked - before };
        cleanedStyles.set(original, done);
      }
      if (!done.cleaned) element.removeAttribute('style');
      else if (done.cleaned !== original) element.setAttribute('style', done.cleaned);
    }
    if (element.tagName === 'IMG') {
      const src = element.getAttribute('src') ?? '';
      if (REMOTE.test(src) && !options.allowRemote) {
        element.removeAttribute('src');
        element.setAttribute('data-blocked', 'remote');
        count();
      } else if (!REMOTE.test(src) && !/^data:image\//i.test(src)) {
        element.removeAttribute('src');
      }
    }
    if (element.tagName === 'A' || element.tagName === 'AREA') {
      // No href at all: a click cannot navigate the frame, even before the app's handler is attached.
      const href = (element.getAttribute('href') ?? '').trim();
      element.removeAttribute('href');
      element.removeAttribute('target');
      if (SAFE_LINK.test(href)) {
        element.setAttribute('data-href', href);
        element.setAttribute('role', 'link');
        element.setAttribute('tabindex', '0');
        if (!element.hasAttribute('title')) element.setAttribute('title', href);
      }
    }
  });
  const html = purify.sanitize(dirty, {
    FORBID_TAGS,
    FORBID_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    FORCE_BODY: true,
  });
  return { ok: true, html, blockedRemote: blocked };
}

/** The isolated document the sanitized HTML is shown in (a sandboxed srcdoc iframe). */
export function emailDocument(clean: string, allowRemote: boolean): string {
  const images = allowRemote ? 'data: https: http:' : 'data:';
  return `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src ${images}; font-src data:${allowRemote ? ' https:' : ''}">
<meta name="referrer" content="no-referrer">
<style>html,body{margin:0;padding:0}body{padding:16px;font:14px/1.5 system-ui,sans-serif;color:#1d1f23;background:#fff;overflow-wrap:anywhere}img{max-width:100%;height:auto}img[data-blocked]{display:inline-block;min-width:16px;min-height:16px;background:#eee;outline:1px dashed #bbb}a,a[data-href]{color:#0b57d0;text-decoration:underline;cursor:pointer}a[data-href]:focus{outline:2px solid #0b57d0;outline-offset:1px}pre{white-space:pre-wrap}</style>
</head><body>${clean}</body></html>`;
}

/** The last few outcomes, by remote setting and HTML: an email sanitized ahead opens without sanitizing again. */
const recent = new LruCache<string, SanitizeOutcome>({ maxEntries: 6 });

const recentKey = (dirty: string, allowRemote: boolean) => `${allowRemote ? 'remote' : 'local'}:${dirty}`;

/** An outcome already at hand (sanitized ahead), or undefined: nothing is computed. */
export function sanitizedAlready(dirty: string, options: { allowRemote: boolean; inline?: Record<string, string> }): SanitizeOutcome | undefined {
  if (options.inline) return undefined;
  return recent.get(recentKey(dirty, options.allowRemote));
}

export function sanitizeEmailHtmlCached(dirty: string, options: { allowRemote: boolean; inline?: Record<string, string> }): SanitizeOutcome {
  const known = sanitizedAlready(dirty, options);
  if (known) return known;
  // Inline images are per email and short-lived: those are not kept.
  if (options.inline) return sanitizeEmailHtml(dirty, options);
  const key = recentKey(dirty, options.allowRemote);
  const outcome = sanitizeEmailHtml(dirty, options);
  recent.set(key, outcome);
  return outcome;
}

/** Sanitizes a body fetched ahead when the app is idle. */
export function presanitize(html: string): void {
  if (hasInlineImages(html)) return;
  requestIdleCallback(() => sanitizeEmailHtmlCached(html, { allowRemote: false }), { timeout: 1000 });
}
