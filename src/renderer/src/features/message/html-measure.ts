/**
 * What an HTML body would cost before any parser sees it. Sanitizing and
 * laying out deeply nested HTML is quadratic in the browser (100,000 nested
 * divs froze the app for 18 s; 293 KB of unclosed <b> for 9 s), so a body past
 * these bounds is not rendered: the reader offers its text instead. One pass,
 * no regular expression that can backtrack, no DOM.
 */
export const HTML_LIMITS = {
  bytes: 2_000_000,
  elements: 25_000,
  depth: 256,
} as const;

export interface HtmlMeasure {
  bytes: number;
  elements: number;
  /** Deepest nesting of elements that need a closing tag. */
  depth: number;
  verdict: 'ok' | 'too-large' | 'too-many-elements' | 'too-deep';
}

/** Elements that never nest (void), or that close themselves when a sibling opens. */
const NON_NESTING = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr',
  'p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'option', 'optgroup', 'thead', 'tbody', 'tfoot', 'colgroup', 'rp', 'rt',
  '!doctype',
]);
/** Their content is text up to the matching end tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noscript', 'iframe', 'noembed', 'noframes']);

const isNameChar = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 45 || code === 58 || code === 33;

export function measureHtml(html: string): HtmlMeasure {
  const bytes = html.length;
  let elements = 0;
  let depth = 0;
  let deepest = 0;
  const verdict = (): HtmlMeasure['verdict'] =>
    bytes > HTML_LIMITS.bytes
      ? 'too-large'
      : elements > HTML_LIMITS.elements
        ? 'too-many-elements'
        : deepest > HTML_LIMITS.depth
          ? 'too-deep'
          : 'ok';
  if (bytes > HTML_LIMITS.bytes) return { bytes, elements, depth: deepest, verdict: 'too-large' };

  const text = html.toLowerCase();
  let at = text.indexOf('<');
  while (at !== -1 && at < text.length - 1) {
    if (text.startsWith('<!--', at)) {
      const end = text.indexOf('-->', at + 4);
      if (end === -1) break;
      at = text.indexOf('<', end + 3);
      continue;
    }
    const closing = text[at + 1] === '/';
    let nameEnd = at + (closing ? 2 : 1);
    while (nameEnd < text.length && isNameChar(text.charCodeAt(nameEnd))) nameEnd++;
    const name = text.slice(at + (closing ? 2 : 1), nameEnd);
    const tagEnd = text.indexOf('>', nameEnd);
    // No '>' anywhere further: no tag can complete, so nothing more nests.
    if (tagEnd === -1) break;
    if (name === '') {
      at = text.indexOf('<', at + 1);
      continue;
    }
    if (closing) {
      if (!NON_NESTING.has(name) && depth > 0) depth--;
    } else {
      elements++;
      const selfClosing = text[tagEnd - 1] === '/';
      if (!NON_NESTING.has(name) && !selfClosing) {
        depth++;
        if (depth > deepest) deepest = depth;
      }
      if (RAW_TEXT.has(name)) {
        const end = text.indexOf(`</${name}`, tagEnd);
        if (end === -1) break;
        if (!NON_NESTING.has(name)) depth--;
        const close = text.indexOf('>', end);
        if (close === -1) break;
        at = text.indexOf('<', close + 1);
        continue;
      }
    }
    if (elements > HTML_LIMITS.elements || deepest > HTML_LIMITS.depth) break;
    at = text.indexOf('<', tagEnd + 1);
  }
  return { bytes, elements, depth: deepest, verdict: verdict() };
}
