/**
 * An email body's text as lines, and its links, read without a DOM: a hostile
 * body (deep nesting, unclosed tags, megabytes) costs one linear pass, never
 * a parse. What the finders need from the layout is kept: a block ends a line,
 * a table cell is a tab, an inline tag leaves words whole, so a code written
 * one digit per <span> or per cell reads as one code.
 */
import { decodeHTML, decodeHTMLAttribute } from 'entities';

export interface EmailLink {
  url: string;
  /** The link's visible text. */
  text: string;
  /** The words just before it (the end of the line or the line above): what labels a link whose text is its own address. */
  before?: string;
}

/** How much of a link's text, or of the words around a bare address, labels it. */
const LABEL_CHARS = 120;

/** Tags that end a line where they open or close. */
const BLOCK = new Set(['address', 'article', 'aside', 'blockquote', 'br', 'center', 'dd', 'div', 'dl', 'dt', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'ul', 'title', 'button']);
/** Tags inside a word: they split nothing ("Best<b>ä</b>tigung", a code one digit per span). */
const INLINE = new Set(['a', 'abbr', 'b', 'big', 'code', 'del', 'em', 'font', 'i', 'ins', 'kbd', 'label', 'mark', 'q', 's', 'samp', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'tt', 'u', 'var', 'wbr', 'o:p']);
/** Blocks whose content is never text: skipped to their end tag. */
const SKIPPED = ['style', 'script', 'title', 'head', 'xml', 'noscript', 'template'];

/** Zero width marks an inline tag's place until the lines are tidied (tidyLine). */
const INLINE_MARK = '\u200B';

/**
 * The text of an HTML body, one line per block, and its links in order.
 * Comments (Outlook's conditional markup among them) and the blocks above are left out.
 */
export function htmlTextAndLinks(html: string): { text: string; links: EmailLink[] } {
  const lower = html.toLowerCase();
  const out: string[] = [];
  const links: EmailLink[] = [];
  // The open link's text so far, and the last words emitted (what labels the next link): both bounded, so the pass stays linear.
  let link: { url: string; text: string; before: string } | null = null;
  let tail = '';
  const emit = (piece: string) => {
    out.push(piece);
    tail = (tail + piece).slice(-LABEL_CHARS * 3);
    if (link && link.text.length < LABEL_CHARS * 4) link.text += piece.slice(0, LABEL_CHARS * 4);
  };
  const closeLink = () => {
    if (!link) return;
    links.push({ url: link.url, text: tidyLine(link.text).slice(0, LABEL_CHARS), ...(link.before ? { before: link.before } : {}) });
    link = null;
  };
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    if (open === -1) {
      emit(textOf(html.slice(at)));
      break;
    }
    if (open > at) emit(textOf(html.slice(at, open)));
    if (lower.startsWith('<!--', open)) {
      const end = lower.indexOf('-->', open + 4);
      at = end === -1 ? html.length : end + 3;
      continue;
    }
    const close = html.indexOf('>', open + 1);
    // A '<' with no '>' after it: the rest is text (a lone "<" in prose).
    if (close === -1) {
      emit(textOf(html.slice(open)));
      break;
    }
    const name = /^<\/?([a-z][a-z0-9:-]*)/.exec(lower.slice(open, Math.min(close + 1, open + 40)))?.[1] ?? '';
    const closing = lower[open + 1] === '/';
    at = close + 1;
    if (!closing && SKIPPED.includes(name)) {
      const end = lower.indexOf(`</${name}`, at);
      at = end === -1 ? html.length : lower.indexOf('>', end) + 1 || html.length;
      continue;
    }
    if (name === 'a') {
      closeLink();
      if (!closing) {
        const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(html.slice(open, close + 1));
        if (href) link = { url: decodeHTMLAttribute((href[1] ?? href[2] ?? href[3] ?? '').trim()), text: '', before: lastWords(tail) };
      }
      emit(INLINE_MARK);
    } else if (BLOCK.has(name)) {
      emit('\n');
    } else if (name === 'td' || name === 'th') {
      emit('\t');
    } else if (INLINE.has(name)) {
      emit(INLINE_MARK);
    } else {
      emit(' ');
    }
  }
  closeLink();
  return { text: tidyText(out.join('')), links };
}

/** Text between tags as a browser shows it: the source's line breaks and tabs are spaces. */
function textOf(source: string): string {
  return decodeHTML(source.replace(/[\r\n\t]+/g, ' '));
}

/** The last line's worth of words before a link: its own line, or the line above when it starts one. */
function lastWords(tail: string): string {
  const trimmed = tail.replace(/[\s\u200B]+$/, '');
  if (trimmed === '') return '';
  return tidyLine(trimmed.slice(trimmed.lastIndexOf('\n') + 1)).slice(-LABEL_CHARS);
}

/**
 * One line made plain: compatibility forms folded (full-width digits and
 * colons, no-break spaces), a code spelled one character per tag or per
 * cell joined, inline marks gone, white space single.
 */
export function tidyLine(line: string): string {
  // A full-width comma or enumeration comma ends a clause as ", " does: NFKC alone would glue "662401，5分钟" into a decimal.
  const folded = line.replace(/[，、]/g, ', ').normalize('NFKC');
  // "7 3 9 2 0 4" or one digit per <span> or <td>: four or more single capitals or digits in a row are one code.
  const joined = folded.replace(/(?<![\p{L}\p{N}])[A-Z0-9](?:[\u200B \t]+[A-Z0-9](?![\p{L}\p{N}])){3,9}/gu, (run) => run.replace(/[\u200B \t]+/g, ''));
  // An inline tag splits no word, as a browser shows it; between a word and a number ("code</b>123456") it is a space.
  return joined
    .replace(/(?<=\p{L})\u200B+(?=\p{N})|(?<=\p{N})\u200B+(?=\p{L})/gu, ' ')
    .replace(/\u200B+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Text tidied line by line, empty lines dropped. */
export function tidyText(text: string): string {
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const tidy = tidyLine(line);
    if (tidy !== '') lines.push(tidy);
  }
  return lines.join('\n');
}

/** The links of a text body: bare URLs (or <URL>), with the words around them as their label. */
export function linksOfText(text: string): EmailLink[] {
  const links: EmailLink[] = [];
  let previous = '';
  for (const line of text.split(/\r?\n/)) {
    for (const match of line.matchAll(/https?:\/\/[^\s<>"')\]]+/g)) {
      // The words around the address label it; a line of a few thousand characters is not a label.
      const at = match.index;
      const label = `${line.slice(Math.max(0, at - LABEL_CHARS), at)} ${line.slice(at + match[0].length, at + match[0].length + LABEL_CHARS)}`.replace(/[<>]/g, ' ');
      const onItsOwn = line.slice(0, at).replace(/[<\s]/g, '') === '';
      links.push({ url: match[0].replace(/[.,;]+$/, ''), text: label.replace(/\s+/g, ' ').trim(), ...(onItsOwn && previous ? { before: previous.slice(-LABEL_CHARS) } : {}) });
    }
    if (line.trim() !== '') previous = line.trim();
  }
  return links;
}
