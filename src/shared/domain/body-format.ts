/**
 * The body formats besides JSON and which one a reader wants first. Apart from
 * email.ts (whose schemas need zod) so the renderer's first screen does not
 * load a schema library for one function.
 */

/** The body formats besides JSON, and the media type that asks for each. */
export const BODY_FORMATS = {
  html: 'text/html',
  text: 'text/plain',
  raw: 'message/rfc2822',
} as const;
export type BodyFormat = keyof typeof BODY_FORMATS;

/** The first format an email has, in the order a reader wants them. */
export function preferredFormat(email: { has_html: boolean; has_text: boolean }): BodyFormat {
  if (email.has_html) return 'html';
  if (email.has_text) return 'text';
  return 'raw';
}
