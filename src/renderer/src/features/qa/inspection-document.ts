/**
 * The email as the reader shows it, as one whole document for main's hidden
 * window (the accessibility check, the rendering compared): the sanitized
 * body in the frame's own stylesheet, light or in a client's dark mode, the
 * `<html>`'s lang as the email declared it. Its policy lets no script of its
 * own run (the checker's engine is run by main beside it) and loads nothing
 * from the web unless the user allowed remote content for this email.
 */
import frameCss from '../../../frame/email-frame.css?raw';
import { answeredDark } from '../message/frame/color-scheme.ts';

const escapeAttribute = (text: string) => text.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);

/** `'unsafe-eval'` alone: no script element or handler can run; the engine main runs may compile its own templates. */
export function inspectionPolicy(remote: boolean): string {
  const web = remote ? ' https: http:' : '';
  return `default-src 'none'; script-src 'unsafe-eval'; style-src 'unsafe-inline'; img-src data:${web}; font-src data:${remote ? ' https:' : ''}; base-uri 'none'; form-action 'none'`;
}

/**
 * The `<html>` element's lang and source line as the email wrote them (the
 * sanitizer keeps only the body). Read from its start tag, as tagSourceLines
 * left it: parsing a 2 MB newsletter again for one attribute would hold the UI.
 */
export function rootOf(taggedSource: string): { lang: string | null; line: number | null } {
  const tag = /<html\b([^>]*)>/i.exec(taggedSource)?.[1];
  if (tag === undefined) return { lang: null, line: null };
  const attribute = (name: string) => new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(tag);
  const lang = attribute('lang');
  const line = Number(attribute('data-source-line')?.[1]);
  return { lang: lang ? (lang[1] ?? lang[2] ?? lang[3] ?? '') : null, line: Number.isInteger(line) && line > 0 ? line : null };
}

export function inspectionDocument(options: { clean: string; dark: boolean; remote: boolean; lang?: string | null; line?: number | null }): string {
  const { clean, dark, remote } = options;
  // The email's dark rules apply as a client in dark mode applies them (the reader's D does the same to the frame's CSSOM).
  const body = dark ? clean.replace(/(<style\b[^>]*>)([\s\S]*?)(<\/style>)/gi, (_m, open: string, css: string, close: string) => open + answeredDark(css) + close) : clean;
  const attributes = [
    options.lang !== null && options.lang !== undefined ? ` lang="${escapeAttribute(options.lang)}"` : '',
    options.line ? ` data-source-line="${options.line}"` : '',
    ` data-scheme="${dark ? 'dark' : 'light'}"`,
  ].join('');
  return [
    '<!doctype html>',
    `<html${attributes}><head><meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="${inspectionPolicy(remote)}">`,
    '<title>Email</title>',
    `<style>${frameCss}</style>`,
    `</head><body>${body}</body></html>`,
  ].join('\n');
}
