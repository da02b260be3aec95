/**
 * Long bodies are clipped, as Gmail clips past about 102 KB: main hands the
 * renderer the first 100 KB, so the first screen of a 5 MB newsletter or a
 * 10 MB log costs what 100 KB costs (moving, sanitizing, parsing and laying out
 * the rest is what freezes a mail client), and "Show the whole message" asks
 * for all of it.
 */
import type { EmailBody } from './email.ts';

export const CLIP_CHARS = 102_400;

export interface Clipped {
  content: string;
  clipped: boolean;
  /** Characters of the whole body. */
  total: number;
}

/**
 * HTML is cut in text, or just before a tag the limit falls inside, so no tag
 * or attribute is split; the parser closes what is left open.
 */
export function clipHtml(html: string, limit = CLIP_CHARS): Clipped {
  if (html.length <= limit) return { content: html, clipped: false, total: html.length };
  const tagOpened = html.lastIndexOf('<', limit - 1);
  const inTag = tagOpened > html.lastIndexOf('>', limit - 1);
  let cut = inTag ? tagOpened : limit;
  // Never half a surrogate pair.
  if (!inTag && /[\uD800-\uDBFF]/.test(html[cut - 1] ?? '')) cut--;
  return { content: html.slice(0, cut), clipped: true, total: html.length };
}

/** Text is cut at the end of a line when there is one near the limit. */
export function clipText(text: string, limit = CLIP_CHARS): Clipped {
  if (text.length <= limit) return { content: text, clipped: false, total: text.length };
  const cut = text.lastIndexOf('\n', limit);
  return { content: text.slice(0, cut > limit / 2 ? cut : limit), clipped: true, total: text.length };
}

/** A body as the reader gets it first: clipped past CLIP_CHARS, with the whole's length in `total`. */
export function clipBody(body: EmailBody): EmailBody {
  const clip = body.format === 'html' ? clipHtml(body.content) : clipText(body.content);
  return clip.clipped ? { ...body, content: clip.content, total: clip.total } : body;
}

export function sizeOfChars(chars: number): string {
  if (chars < 1024 * 1024) return `${Math.round(chars / 1024)} KB`;
  return `${(chars / (1024 * 1024)).toFixed(1)} MB`;
}
