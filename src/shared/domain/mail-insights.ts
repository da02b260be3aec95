/**
 * What a QA engineer pulls out of a transactional email by hand: the one-time
 * code (sign-up, login, 2FA) and the main call to action (reset, confirm,
 * magic link). Pure: the subject and the body as the reader has it in; the
 * deciding is done in insights/ (text extraction, the code, the link).
 */
import type { EmailBody } from './email.ts';
import { findActionLink } from './insights/action-link.ts';
import { findCode, type FoundCode } from './insights/code-finder.ts';
import { htmlTextAndLinks, linksOfText, tidyText, type EmailLink } from './insights/html-text.ts';

export { findActionLink, findCode, htmlTextAndLinks, linksOfText };
export type { EmailLink, FoundCode };

export interface Insights {
  code: FoundCode | null;
  link: EmailLink | null;
}

/** How much of a body the code and the main link are looked for in (the reader's clipped body is 100 KB). */
export const INSIGHT_CHARS = 200_000;

/**
 * The code and the main link of an email, from its body as shown: an HTML
 * body read in one linear pass without a DOM (a hostile body is never parsed
 * for this), a text body line by line.
 */
export function insightsOf(subject: string, body: Pick<EmailBody, 'format' | 'content'>): Insights {
  // The raw message is the source, not what the reader reads: its encoded parts and headers would only mislead.
  if (body.format === 'raw') return { code: null, link: null };
  // A code or a call to action sits near the top of the mail that has one; reading a whole 2 MB
  // newsletter for them held the UI thread 50-80 ms each time it was shown.
  const content = body.content.length > INSIGHT_CHARS ? body.content.slice(0, INSIGHT_CHARS) : body.content;
  if (body.format === 'html') {
    const { text, links } = htmlTextAndLinks(content);
    return { code: findCode(subject, text), link: findActionLink(subject, text, links) };
  }
  const text = tidyText(content);
  return { code: findCode(subject, text), link: findActionLink(subject, text, linksOfText(content)) };
}
