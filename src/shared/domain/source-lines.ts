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

const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);

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
    const name = /^[^\s/>]+/.exec(html.slice(at + 1, at + 200))![0];
    const nameEnd = at + 1 + name.length;
    out.push(html.slice(copied, nameEnd), ` ${SOURCE_LINE_ATTRIBUTE}="${lineAt(at)}"`);
    copied = nameEnd;
    const lower = name.toLowerCase();
    // Past the tag, skipping quoted attribute values (a `>` inside one does not end it).
    const tagEnd = endOfTag(html, nameEnd);
    if (tagEnd === -1) break;
    if (lower === 'plaintext') break;
    if (RAW_TEXT.has(lower)) {
      const close = new RegExp(`</${lower}`, 'gi');
      close.lastIndex = tagEnd;
      const found = close.exec(html);
      at = found === null ? -1 : html.indexOf('<', found.index + 1);
      continue;
    }
    at = html.indexOf('<', tagEnd);
  }
  out.push(html.slice(copied));
  return out.join('');
}

/** The index just past the `>` that ends the tag whose attributes start at `from`; -1 if it never ends. */
function endOfTag(html: string, from: number): number {
  let quote: string | null = null;
  let afterEquals = false;
  for (let i = from; i < html.length; i++) {
    const c = html[i]!;
    if (quote !== null) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === '>') return i + 1;
    // A quote opens a value only right after `=` (and spaces): `a"b` in a name is just a character.
    if ((c === '"' || c === "'") && afterEquals) {
      quote = c;
      afterEquals = false;
      continue;
    }
    if (c === '=') afterEquals = true;
    else if (!/\s/.test(c)) afterEquals = false;
  }
  return -1;
}
