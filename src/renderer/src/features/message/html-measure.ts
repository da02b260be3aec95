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

/** Elements that never hold others. */
const VOID = new Set([
  'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr', '!doctype',
  'keygen', 'frame', 'basefont', 'bgsound', 'image',
]);
/** Their content is text up to the matching end tag. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noscript', 'iframe', 'noembed', 'noframes', 'plaintext']);
/** The parser merges these into the document's own: they never nest. */
const DOCUMENT = new Set(['html', 'head', 'body']);
/** Formatting elements: closed by something else, the parser opens them again ("reconstructs") for the content after. */
const FORMATTING = new Set(['a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u']);
/** Elements that put a marker in the list of formatting elements: what opens inside them ends with them. */
const MARKERS = new Set(['td', 'th', 'caption', 'applet', 'marquee', 'object', 'template']);
/** An end tag looks for its element no further down than these. */
const SCOPE = new Set(['applet', 'caption', 'html', 'table', 'td', 'th', 'marquee', 'object', 'template']);
/** The parser's "special" elements: an end tag for an ordinary element stops at them. */
const SPECIAL = new Set([
  ...SCOPE, 'address', 'article', 'aside', 'blockquote', 'body', 'center', 'dd', 'details', 'dialog', 'dir', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'li', 'main',
  'menu', 'nav', 'ol', 'p', 'pre', 'section', 'select', 'summary', 'tbody', 'tfoot', 'thead', 'tr', 'ul', 'button', 'listing',
]);
/** Parts of a table: outside one, the parser ignores their tags. */
const TABLE_PARTS = new Set(['tbody', 'thead', 'tfoot', 'tr', 'td', 'th', 'caption', 'col', 'colgroup']);

/**
 * The parser's implied end tags: opening one of these first closes an open
 * element of its group, looking down the open elements no further than a
 * boundary (a new <li> ends the last <li> of the same list, not of an outer one).
 */
const IMPLIED: Record<string, { group: readonly string[]; boundary: readonly string[] }> = {};
const implied = (names: string[], group: string[], boundary: string[]) => names.forEach((name) => (IMPLIED[name] = { group, boundary }));
// A list item looks down past phrasing, <address>, <div> and <p> only.
const LIST_ITEM_BOUNDARY = [...SPECIAL].filter((name) => name !== 'address' && name !== 'div' && name !== 'p');
implied(['li'], ['li'], LIST_ITEM_BOUNDARY);
implied(['dt', 'dd'], ['dt', 'dd'], LIST_ITEM_BOUNDARY);
implied(['td', 'th'], ['td', 'th'], ['tr', 'table']);
implied(['tr'], ['tr'], ['tbody', 'thead', 'tfoot', 'table']);
implied(['tbody', 'thead', 'tfoot'], ['tbody', 'thead', 'tfoot'], ['table']);
implied(['rp', 'rt'], ['rp', 'rt'], ['ruby']);
implied(['button'], ['button'], [...SCOPE]);
/** Opening one of these ends an open <p> (the parser's "close a p element in button scope"; <table> only outside quirks mode, so not here). */
const ENDS_P = new Set([
  'address', 'article', 'aside', 'blockquote', 'center', 'details', 'dialog', 'dir', 'div', 'dl', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'main', 'menu', 'nav', 'ol', 'p',
  'pre', 'section', 'summary', 'ul', 'li', 'dd', 'dt', 'listing', 'plaintext', 'xmp',
]);
const P_SCOPE = [...SCOPE, 'button'];
/** HTML elements that end SVG or MathML content when they open inside it. */
const BREAKOUT = new Set([
  'b', 'big', 'blockquote', 'body', 'br', 'center', 'code', 'dd', 'div', 'dl', 'dt', 'em', 'embed', 'h1', 'h2', 'h3', 'h4', 'h5',
  'h6', 'head', 'hr', 'i', 'img', 'li', 'listing', 'menu', 'meta', 'nobr', 'ol', 'p', 'pre', 'ruby', 's', 'small', 'span', 'strong',
  'strike', 'sub', 'sup', 'table', 'tt', 'u', 'ul', 'var',
]);

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Start tags before which the parser does not reopen formatting elements. */
const NO_RECONSTRUCT = new Set([...ENDS_P, ...HEADINGS, ...TABLE_PARTS, 'table', 'hr', 'form']);

/** Where an end tag stops looking for its element, where that differs from the default scope. */
const TABLE_SCOPE = ['html', 'table', 'template'];
const END_SCOPE: Record<string, readonly string[]> = {
  li: [...SCOPE, 'ul', 'ol'],
  p: P_SCOPE,
  // A table's end tags close the cell they are in first.
  ...Object.fromEntries(['table', 'tbody', 'thead', 'tfoot', 'tr', 'caption'].map((name) => [name, TABLE_SCOPE])),
};

interface OpenElement {
  name: string;
  /** An SVG or MathML element. */
  foreign?: boolean;
  /** Name and attributes as written: the formatting elements the parser counts as the same (at most three kept). */
  key: string;
}
const MARKER = null;

/**
 * The browser's tree construction, cut down to what decides how deep it
 * nests: the stack of open elements and the list of formatting elements.
 * Where this is unsure it keeps an element open: it may think an email
 * deeper than it is, never shallower (a test holds it to Chromium's parser).
 */
class NestingModel {
  private readonly open: OpenElement[] = [];
  private readonly openSet = new Set<OpenElement>();
  private readonly formatting: (OpenElement | typeof MARKER)[] = [];
  private tables = 0;
  private selects = 0;
  deepest = 0;

  /** Inside <svg> or <math>, where a trailing slash does close an element and HTML's rules do not apply. */
  get inForeignContent(): boolean {
    return this.open.at(-1)?.foreign === true;
  }

  get depth(): number {
    return this.open.length;
  }

  private push(element: OpenElement): void {
    this.open.push(element);
    this.openSet.add(element);
    if (element.name === 'table') this.tables++;
    if (element.name === 'select') this.selects++;
    if (this.open.length > this.deepest) this.deepest = this.open.length;
  }

  /** Closes the element at `index` and everything above it. */
  private popTo(index: number): void {
    for (const element of this.open.splice(index)) {
      this.openSet.delete(element);
      if (element.name === 'table') this.tables--;
      if (element.name === 'select') this.selects--;
      if (MARKERS.has(element.name)) this.clearToMarker();
    }
  }

  private clearToMarker(): void {
    while (this.formatting.length > 0 && this.formatting.pop() !== MARKER);
  }

  /** Where the last open element of `group` is, looking down no further than a boundary; -1 if none. */
  private find(group: readonly string[] | ReadonlySet<string>, boundary: ReadonlySet<string> | readonly string[]): number {
    const has = (set: ReadonlySet<string> | readonly string[], name: string) => (set instanceof Set ? set.has(name) : (set as readonly string[]).includes(name));
    for (let i = this.open.length - 1; i >= 0; i--) {
      const name = this.open[i]!.name;
      if (has(group, name)) return i;
      if (has(boundary, name)) return -1;
    }
    return -1;
  }

  /** Formatting elements closed by something else come back for the content after them. */
  reconstruct(): void {
    let from = this.formatting.length;
    while (from > 0) {
      const entry = this.formatting[from - 1];
      if (entry === MARKER || this.openSet.has(entry!)) break;
      from--;
    }
    for (let i = from; i < this.formatting.length; i++) {
      const copy = { ...this.formatting[i]! };
      this.formatting[i] = copy;
      this.push(copy);
    }
  }

  /** The last formatting entry after the last marker with this name; -1 if none. */
  private activeIndex(name: string): number {
    for (let i = this.formatting.length - 1; i >= 0; i--) {
      const entry = this.formatting[i];
      if (entry === MARKER) return -1;
      if (entry!.name === name) return i;
    }
    return -1;
  }

  /**
   * A tag inside SVG or MathML: an element of theirs nests (or closes itself),
   * while an HTML element (or `</br>`, `</p>`) first closes every foreign element.
   * Answers whether the tag was taken as foreign.
   */
  foreignTag(name: string, key: string, closing: boolean, selfClosing: boolean): boolean {
    const breaksOut = closing ? name === 'br' || name === 'p' : BREAKOUT.has(name) || (name === 'font' && /\b(?:color|face|size)\b/.test(key));
    if (!this.inForeignContent || breaksOut) {
      let at = this.open.length;
      while (at > 0 && this.open[at - 1]!.foreign) at--;
      if (at < this.open.length) this.popTo(at);
      if (!closing && (name === 'svg' || name === 'math')) {
        this.reconstruct();
        if (!selfClosing) this.push({ name, key, foreign: true });
        return true;
      }
      return false;
    }
    if (closing) {
      for (let i = this.open.length - 1; i >= 0 && this.open[i]!.foreign; i--) {
        if (this.open[i]!.name === name) {
          this.popTo(i);
          return true;
        }
      }
      // No foreign element of that name: HTML's rules take the end tag.
      return false;
    } else if (!selfClosing) {
      this.push({ name, key, foreign: true });
    }
    return true;
  }

  /** What opening `name` closes first, as the parser's implied end tags do. */
  private impliedEnds(name: string): void {
    // A new <a> (or <nobr>) first ends the one still open, as an end tag would.
    if ((name === 'a' || name === 'nobr') && this.activeIndex(name) !== -1) this.end(name);
    if (ENDS_P.has(name)) {
      const p = this.find(['p'], P_SCOPE);
      if (p !== -1) this.popTo(p);
    }
    // An <option> or <optgroup> ends only an option (or optgroup) that is the current element.
    if ((name === 'option' || name === 'optgroup') && this.open.at(-1)?.name === 'option') this.popTo(this.open.length - 1);
    if (name === 'optgroup' && this.open.at(-1)?.name === 'optgroup') this.popTo(this.open.length - 1);
    const rule = IMPLIED[name];
    if (rule) {
      const at = this.find(rule.group, rule.boundary);
      if (at !== -1) this.popTo(at);
    }
    if (HEADINGS.has(name) && HEADINGS.has(this.open.at(-1)?.name ?? '')) this.popTo(this.open.length - 1);
    // A <table> straight inside a table's structure ends that table first. (A <select> inside a
    // select may close it, but where it does depends on the browser's version: it is kept open here.)
    if (name === 'table') {
      const context = this.find(['table', 'td', 'th', 'caption'], []);
      if (context !== -1 && this.open[context]!.name === 'table') this.popTo(context);
    }
  }

  start(name: string, key: string): void {
    if (DOCUMENT.has(name)) return;
    if (TABLE_PARTS.has(name) && this.tables === 0) return;
    // Inside a <select> what a tag closes depends on the browser's version: nothing is closed here.
    if (this.selects === 0) this.impliedEnds(name);
    // Formatting elements other elements ended come back before phrasing (block elements do not ask for them).
    if (!NO_RECONSTRUCT.has(name)) this.reconstruct();
    if (name === 'td' || name === 'th') {
      const row = this.find(['tr', 'table'], []);
      if (row === -1 || this.open[row]!.name === 'table') {
        this.push({ name: 'tbody', key: 'tbody' });
        this.push({ name: 'tr', key: 'tr' });
      }
    } else if (name === 'tr') {
      const section = this.find(['tbody', 'thead', 'tfoot', 'table'], []);
      if (section === -1 || this.open[section]!.name === 'table') this.push({ name: 'tbody', key: 'tbody' });
    }
    const element = { name, key };
    this.push(element);
    if (MARKERS.has(name)) this.formatting.push(MARKER);
    if (FORMATTING.has(name)) {
      // The parser keeps at most three alike after the last marker ("Noah's Ark").
      let alike = 0;
      for (let i = this.formatting.length - 1; i >= 0 && this.formatting[i] !== MARKER; i--) {
        if (this.formatting[i]!.key === key && ++alike === 3) {
          this.formatting.splice(i, 1);
          break;
        }
      }
      this.formatting.push(element);
    }
  }

  end(name: string): void {
    if (DOCUMENT.has(name)) return;
    // Inside a <select> the parser ignores end tags but its own.
    if (this.selects > 0 && name !== 'select' && name !== 'option' && name !== 'optgroup') return;
    if (FORMATTING.has(name)) {
      const entry = this.activeIndex(name);
      if (entry !== -1) {
        const element = this.formatting[entry]!;
        this.formatting.splice(entry, 1);
        const at = this.open.indexOf(element);
        if (at === -1) return;
        // Only phrasing above it: those close with it (and come back). A block above it is moved, not closed: keep all.
        if (!this.open.slice(at + 1).some((above) => SPECIAL.has(above.name))) this.popTo(at);
        return;
      }
    }
    // An end tag nothing opened (`</x>`) closes nothing, nor one whose element lies past a boundary.
    const at = this.find([name], END_SCOPE[name] ?? (SPECIAL.has(name) ? SCOPE : SPECIAL));
    if (at !== -1) this.popTo(at);
  }
}

const isNameChar = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 45 || code === 58 || code === 33;

/** `added`: characters the app put in (source-lines.ts's attributes), not counted against the size limit. */
export function measureHtml(html: string, added = 0): HtmlMeasure {
  const bytes = html.length - added;
  let elements = 0;
  const model = new NestingModel();
  const verdict = (): HtmlMeasure['verdict'] =>
    bytes > HTML_LIMITS.bytes
      ? 'too-large'
      : elements > HTML_LIMITS.elements
        ? 'too-many-elements'
        : model.deepest > HTML_LIMITS.depth
          ? 'too-deep'
          : 'ok';
  if (bytes > HTML_LIMITS.bytes) return { bytes, elements, depth: 0, verdict: 'too-large' };

  const text = html.toLowerCase();
  /** Text between tags makes the parser reopen closed formatting elements around it. */
  const textBetween = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const code = text.charCodeAt(i);
      if (code !== 32 && code !== 10 && code !== 13 && code !== 9 && code !== 12) return true;
    }
    return false;
  };
  let at = text.indexOf('<');
  if (at > 0 && textBetween(0, at)) model.reconstruct();
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
      const next = text.indexOf('<', at + 1);
      if (textBetween(at, next === -1 ? text.length : next)) model.reconstruct();
      at = next;
      continue;
    }
    const key = closing ? '' : html.slice(at + 1, tagEnd).trim();
    // `<div/>` opens a div like any other: the slash closes an element only in SVG and MathML.
    const selfClosing = !closing && text[tagEnd - 1] === '/';
    if (!closing) elements++;
    if (model.foreignTag(name, key, closing, selfClosing)) {
      // An SVG or MathML tag: nested or closed as such above.
    } else if (closing) {
      // `</br>` is read as `<br>`: nothing opens.
      if (name === 'br') model.reconstruct();
      else model.end(name);
    } else {
      if (!VOID.has(name)) model.start(name, key);
      else model.reconstruct();
      if (RAW_TEXT.has(name)) {
        const end = text.indexOf(`</${name}`, tagEnd);
        if (end === -1) break;
        model.end(name);
        const close = text.indexOf('>', end);
        if (close === -1) break;
        at = text.indexOf('<', close + 1);
        continue;
      }
    }
    if (elements > HTML_LIMITS.elements || model.deepest > HTML_LIMITS.depth) break;
    const next = text.indexOf('<', tagEnd + 1);
    if (textBetween(tagEnd + 1, next === -1 ? text.length : next)) model.reconstruct();
    at = next;
  }
  return { bytes, elements, depth: model.deepest, verdict: verdict() };
}
