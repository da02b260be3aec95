/**
 * Which line of an email's HTML source each element came from. A check that
 * runs on the email as the reader shows it (sanitized, parsed by a browser)
 * can then name the line a tester edits: every start tag gets the attribute
 * `data-source-line` with the line its `<` is on, before the HTML is parsed.
 * The attribute goes right after the tag's name, so it is the tag's first
 * attribute and the one a browser keeps if the email wrote its own. Pure.
 *
 * What the scan knows of HTML's tokenizer (WHATWG 13.2.5), and no more: a
 * start tag is `<` and an ASCII letter; comments, doctypes and processing
 * instructions are skipped whole; the text of script, style and the other
 * raw-text elements runs to their own end tag. A wrong guess costs a wrong
 * line number, never safety: the sanitizer runs on the result.
 */
export const SOURCE_LINE_ATTRIBUTE = 'data-source-line';

/** A tag's name: up to white space, `/` or `>` (sticky: read where the `<` left off, without copying). */
const TAG_NAME = /[^\t\n\f\r />]+/y;
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

/** One start tag: where its `<` is, where its name ends, just past its `>`, and its name in lower case. */
export interface StartTag {
  start: number;
  nameEnd: number;
  end: number;
  name: string;
}

/** Every start tag of `html`, in order, as an HTML tokenizer would find them (see above). */
export function* startTags(html: string): Generator<StartTag> {
  let at = html.indexOf('<');
  while (at !== -1 && at < html.length) {
    const next = html[at + 1] ?? '';
    if (html.startsWith('<!--', at)) {
      const end = html.indexOf('-->', at + 4);
      at = end === -1 ? -1 : html.indexOf('<', end + 3);
      continue;
    }
    if (next === '!' || next === '?' || next === '/') {
      const end = html.indexOf('>', at + 2);
      at = end === -1 ? -1 : html.indexOf('<', end + 1);
      continue;
    }
    if (!/[A-Za-z]/.test(next)) {
      at = html.indexOf('<', at + 1);
      continue;
    }
    TAG_NAME.lastIndex = at + 1;
    const nameEnd = at + 1 + TAG_NAME.exec(html)![0].length;
    // Past the tag, skipping quoted attribute values (a `>` inside one does not end it).
    const end = endOfTag(html, nameEnd);
    if (end === -1) return;
    const name = html.slice(at + 1, nameEnd).toLowerCase();
    yield { start: at, nameEnd, end, name };
    if (name === 'plaintext') return;
    if (RAW_TEXT.has(name)) {
      const close = new RegExp(`</${name}`, 'gi');
      close.lastIndex = end;
      const found = close.exec(html);
      at = found === null ? -1 : html.indexOf('<', found.index + 1);
      continue;
    }
    at = html.indexOf('<', end);
  }
}

export function tagSourceLines(html: string): string {
  const out: string[] = [];
  let line = 1;
  let copied = 0;
  /** Lines counted up to `to`, from where the count stands. */
  let counted = 0;
  const lineAt = (to: number) => {
    for (let i = html.indexOf('\n', counted); i !== -1 && i < to; i = html.indexOf('\n', i + 1)) line += 1;
    counted = Math.max(counted, to);
    return line;
  };
  for (const tag of startTags(html)) {
    out.push(html.slice(copied, tag.nameEnd), ` ${SOURCE_LINE_ATTRIBUTE}="${lineAt(tag.start)}"`);
    copied = tag.nameEnd;
  }
  out.push(html.slice(copied));
  return out.join('');
}

/** The index just past the `>` that ends the tag whose attributes start at `from`; -1 if it never ends. */
function endOfTag(html: string, from: number): number {
  let quote = 0;
  let afterEquals = false;
  for (let i = from; i < html.length; i++) {
    const c = html.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
      continue;
    }
    if (c === GT) return i + 1;
    // A quote opens a value only right after `=` (and spaces): `a"b` in a name is just a character.
    if ((c === DOUBLE_QUOTE || c === SINGLE_QUOTE) && afterEquals) {
      quote = c;
      afterEquals = false;
      continue;
    }
    if (c === EQUALS) afterEquals = true;
    else if (!(c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d)) afterEquals = false;
  }
  return -1;
}

const GT = 0x3e;
const EQUALS = 0x3d;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
