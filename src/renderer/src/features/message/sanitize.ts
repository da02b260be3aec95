import DOMPurify from 'dompurify';
import { SOURCE_LINE_ATTRIBUTE } from '../../../../shared/domain/source-lines.ts';
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

/** CSS escapes decoded (`\\75 rl(` is `url(`): custom properties and var() keep the text as written. */
function decodeCssEscapes(text: string): string {
  return text.replace(/\\([0-9a-f]{1,6})\s?|\\(.)/gi, (_m, hex: string | undefined, char: string | undefined) =>
    hex ? String.fromCodePoint(parseInt(hex, 16) || 0xfffd) : (char ?? ''),
  );
}

/**
 * Cleans one parsed declaration block in place; answers whether it took
 * anything out. Custom properties and every declaration that uses var() go:
 * their values are token streams the browser resolves only at layout, so
 * neither a URL nor `position: fixed` could be seen in them here.
 */
function cleanStyle(style: CSSStyleDeclaration, allowRemote: boolean, count: Count): boolean {
  let removed = false;
  for (let i = style.length - 1; i >= 0; i--) {
    const name = style.item(i);
    const value = style.getPropertyValue(name);
    const decoded = decodeCssEscapes(value);
    if (name.startsWith('--') || /\bvar\(/i.test(decoded)) {
      style.removeProperty(name);
      removed = true;
      if (LOADS.test(decoded)) count(Math.max(1, urlsAllowed(decoded, false).remote));
      continue;
    }
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

/** What a rule left out would have loaded: counted, so the banner says so. */
function countDropped(rule: CSSRule, count: Count): void {
  const text = decodeCssEscapes(rule.cssText);
  const loads = urlsAllowed(text, false).remote;
  if (loads > 0) count(loads);
}

/** The rules inside a rule (nested style rules, @layer, @container …); none for a plain one. */
function childRules(rule: CSSRule): CSSRuleList | null {
  const rules = (rule as { cssRules?: CSSRuleList }).cssRules;
  return rules && rules.length > 0 ? rules : null;
}

/**
 * Rules are rebuilt from the browser's own parse: what it cannot parse never
 * reaches the frame, and every rule nested in another is walked and cleaned
 * as its parent is (CSS nesting, @layer, @container, @scope, @media …).
 */
function cleanRules(rules: CSSRuleList, allowRemote: boolean, count: Count): string[] {
  const kept: string[] = [];
  const inner = (rule: CSSRule) => {
    const children = childRules(rule);
    return children ? cleanRules(children, allowRemote, count).join('') : '';
  };
  for (const rule of Array.from(rules)) {
    if (rule instanceof CSSStyleRule) {
      cleanStyle(rule.style, allowRemote, count);
      kept.push(`${rule.selectorText}{${rule.style.cssText}${inner(rule)}}`);
    } else if (typeof CSSNestedDeclarations !== 'undefined' && rule instanceof CSSNestedDeclarations) {
      cleanStyle(rule.style, allowRemote, count);
      kept.push(rule.style.cssText);
    } else if (rule instanceof CSSFontFaceRule) {
      const verdict = urlsAllowed(decodeCssEscapes(rule.style.getPropertyValue('src')), allowRemote);
      if (verdict.ok) kept.push(rule.cssText);
      else count(verdict.remote);
    } else if (rule instanceof CSSKeyframesRule) {
      for (const frame of Array.from(rule.cssRules)) cleanStyle((frame as CSSKeyframeRule).style, allowRemote, count);
      kept.push(rule.cssText);
    } else if (rule instanceof CSSMediaRule) {
      kept.push(`@media ${rule.media.mediaText}{${inner(rule)}}`);
    } else if (rule instanceof CSSSupportsRule) {
      kept.push(`@supports ${rule.conditionText}{${inner(rule)}}`);
    } else if (typeof CSSLayerBlockRule !== 'undefined' && rule instanceof CSSLayerBlockRule) {
      kept.push(`@layer ${rule.name}{${inner(rule)}}`);
    } else if (typeof CSSLayerStatementRule !== 'undefined' && rule instanceof CSSLayerStatementRule) {
      kept.push(rule.cssText);
    } else if (typeof CSSContainerRule !== 'undefined' && rule instanceof CSSContainerRule) {
      kept.push(`@container ${rule.conditionText}{${inner(rule)}}`);
    } else if (rule instanceof CSSImportRule) {
      count();
    } else {
      // Anything else (@scope, @namespace, @property, @page, @starting-style …) is left out, its loads counted.
      countDropped(rule, count);
    }
  }
  return kept;
}

/** `@import` never survives a constructed sheet; count the ones the email had. */
function importsIn(css: string): number {
  const decoded = decodeCssEscapes(css.replace(/\/\*[\s\S]*?\*\//g, ''));
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

export interface SanitizeOptions {
  allowRemote: boolean;
  /** The email's own images (cid:), as data: URLs main resolved. */
  inline?: Record<string, string>;
  /** Keeps source-lines.ts's data-source-line on each element (the accessibility check names lines by it). */
  sourceLines?: boolean;
  /** How many characters those attributes added: the size limit counts the email's own. */
  taggedChars?: number;
}

const CONFIG = {
  FORBID_TAGS,
  FORBID_ATTR,
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  FORCE_BODY: true,
};

const configFor = (options: SanitizeOptions) => (options.sourceLines ? { ...CONFIG, ADD_ATTR: [SOURCE_LINE_ATTRIBUTE] } : CONFIG);

/**
 * One email's sanitizing: its options, what it held back, and the hooks that
 * apply them. The hooks go on the one DOMPurify instance before each call
 * (making an instance costs more than a short email), since a run in slices
 * may have let another email's run install its own in between.
 */
function sanitizingRun(options: SanitizeOptions) {
  purifier ??= DOMPurify(window);
  const purify = purifier;
  // A document without a browsing context: parsing a style attribute here loads nothing.
  const scratch = document.implementation.createHTMLDocument('').createElement('div');
  let blocked = 0;
  const cleanedStyles = new Map<string, { cleaned: string; blocked: number }>();
  const count: Count = (n = 1) => {
    blocked += n;
  };
  const install = () => {
    purify.removeAllHooks();
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
    return purify;
  };
  return { install, blocked: () => blocked };
}

export function sanitizeEmailHtml(dirty: string, options: SanitizeOptions): SanitizeOutcome {
  // The frame waiting for a body shows nothing: that costs no DOMPurify run (a quarter of opening an email).
  if (dirty === '') return { ok: true, html: '', blockedRemote: 0 };
  const measure = measureHtml(dirty, options.taggedChars ?? 0);
  if (measure.verdict !== 'ok') return { ok: false, measure, reason: measure.verdict };
  const run = sanitizingRun(options);
  const html = run.install().sanitize(dirty, configFor(options));
  return { ok: true, html, blockedRemote: run.blocked() };
}

/**
 * Elements long emails are built of. One with more elements inside than a
 * slice takes is sanitized on its own, childless, and its children after it.
 */
const CONTAINERS = new Set([
  'TABLE', 'TBODY', 'THEAD', 'TFOOT', 'TR', 'TD', 'TH', 'DIV', 'CENTER', 'SECTION', 'ARTICLE', 'MAIN', 'HEADER',
  'FOOTER', 'ASIDE', 'NAV', 'UL', 'OL', 'LI', 'DL', 'DD', 'DT', 'BLOCKQUOTE', 'P', 'SPAN', 'FONT', 'B', 'I', 'U',
  'STRONG', 'EM', 'SMALL', 'BIG',
]);

/** Lets the UI thread handle a key or paint a frame, then carries on. */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

export interface Slicing {
  /** Elements one call into DOMPurify may take at most (a bigger container is split). */
  elements?: number;
  /** How long a slice runs before the UI thread gets its turn. */
  sliceMs?: number;
  signal?: AbortSignal;
  /** Told once, after the first slice, what is clean so far: the top of the email, to show meanwhile. */
  onFirstSlice?: (sofar: SanitizeOutcome) => void;
}

/**
 * The same outcome as sanitizeEmailHtml, in slices of a few milliseconds, so
 * that sanitizing a long email never holds up a key. The HTML is parsed once
 * as DOMPurify parses a string; each part is then sanitized as a node
 * (DOMPurify copies it into a document of its own) and the clean copies are
 * assembled in document order. A test holds its output to the one-shot's.
 */
export async function sanitizeEmailHtmlInSlices(
  dirty: string,
  options: SanitizeOptions,
  { elements = 200, sliceMs = 8, signal, onFirstSlice }: Slicing = {},
): Promise<SanitizeOutcome> {
  const measure = measureHtml(dirty, options.taggedChars ?? 0);
  if (measure.verdict !== 'ok') return { ok: false, measure, reason: measure.verdict };
  // Without markup DOMPurify hands the text back as it is: so does this.
  if (!dirty.includes('<')) return sanitizeEmailHtml(dirty, options);
  const run = sanitizingRun(options);
  const source = new DOMParser().parseFromString(`<remove></remove>${dirty}`, 'text/html').body;
  source.firstChild?.remove();
  const output = document.implementation.createHTMLDocument('').body;
  const size = (node: Node) => (node instanceof Element ? node.getElementsByTagName('*').length + 1 : 0);
  // Depth first, in document order: each node with the clean parent it goes into.
  const stack: [Node, Node][] = [...source.childNodes].reverse().map((node) => [node, output]);
  let slices = 0;
  while (stack.length > 0) {
    if (signal?.aborted) throw signal.reason;
    const purify = run.install();
    // For this slice only (parsing the options on every call costs more than a small part).
    purify.setConfig({ ...configFor(options), RETURN_DOM_FRAGMENT: true });
    const clean = (node: Node) => purify.sanitize(node) as unknown as DocumentFragment;
    const sliceStarted = performance.now();
    try {
      while (stack.length > 0 && performance.now() - sliceStarted <= sliceMs) {
        const [node, parent] = stack.pop()!;
        if (node instanceof Element && CONTAINERS.has(node.tagName) && size(node) > elements) {
          const shell = clean(node.cloneNode(false));
          const kept = shell.firstChild;
          if (shell.childNodes.length === 1 && kept instanceof Element && kept.tagName === node.tagName) {
            parent.appendChild(kept);
            for (const child of [...node.childNodes].reverse()) stack.push([child, kept]);
            continue;
          }
        }
        // This node and the siblings after it, up to a part's worth, in one call.
        // A fragment of the inert source document: adopting an <img> into the app's own document would load it.
        const part = source.ownerDocument.createDocumentFragment();
        let load = size(node);
        part.appendChild(node);
        while (stack.length > 0 && stack[stack.length - 1]![1] === parent) {
          const next = stack[stack.length - 1]![0];
          const nextSize = size(next);
          if (load + nextSize > elements) break;
          stack.pop();
          part.appendChild(next);
          load += nextSize;
        }
        parent.appendChild(clean(part));
      }
    } finally {
      purify.clearConfig();
    }
    if (stack.length === 0) break;
    if (slices++ === 0) onFirstSlice?.({ ok: true, html: output.innerHTML, blockedRemote: run.blocked() });
    await nextTask();
  }
  return { ok: true, html: output.innerHTML, blockedRemote: run.blocked() };
}

/** The last few outcomes, by remote setting and HTML: an email sanitized ahead opens without sanitizing again. */
const recent = new LruCache<string, SanitizeOutcome>({ maxEntries: 6 });

const recentKey = (dirty: string, options: SanitizeOptions) => `${options.allowRemote ? 'remote' : 'local'}${options.sourceLines ? '+lines' : ''}:${dirty}`;

/** An outcome already at hand (sanitized ahead), or undefined: nothing is computed. */
export function sanitizedAlready(dirty: string, options: SanitizeOptions): SanitizeOutcome | undefined {
  if (options.inline) return undefined;
  return recent.get(recentKey(dirty, options));
}

export function sanitizeEmailHtmlCached(dirty: string, options: SanitizeOptions): SanitizeOutcome {
  const known = sanitizedAlready(dirty, options);
  if (known) return known;
  const outcome = sanitizeEmailHtml(dirty, options);
  // Inline images are per email and short-lived: those are not kept.
  if (!options.inline) recent.set(recentKey(dirty, options), outcome);
  return outcome;
}

/** sanitizeEmailHtmlCached in slices (sanitizeEmailHtmlInSlices): for a long email. */
export async function sanitizeInSlicesCached(
  dirty: string,
  options: SanitizeOptions,
  slicing: Pick<Slicing, 'signal' | 'onFirstSlice'> = {},
): Promise<SanitizeOutcome> {
  const known = sanitizedAlready(dirty, options);
  if (known) return known;
  const outcome = await sanitizeEmailHtmlInSlices(dirty, options, slicing);
  if (!options.inline) recent.set(recentKey(dirty, options), outcome);
  return outcome;
}

/** Sanitizes a body fetched ahead when the app is idle, in slices: a key pressed meanwhile waits for none of it. */
export function presanitize(html: string): void {
  if (hasInlineImages(html)) return;
  requestIdleCallback(() => void sanitizeInSlicesCached(html, { allowRemote: false }).catch(() => undefined), { timeout: 1000 });
}
