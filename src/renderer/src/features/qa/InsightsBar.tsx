import { useMemo } from 'react';
import type { Email, EmailBody } from '../../../../shared/domain/email.ts';
import { insightsOf } from '../../../../shared/domain/mail-insights.ts';

/** The link's host to name it by; a link the finder took but URL cannot parse is named as written. */
const hostOf = (url: string) => (URL.canParse(url) ? new URL(url).host || url : url);

/** Bodies up to this size are read for a code and a link as they open; a longer one only when C or L asks. */
const INSIGHTS_MAX_CHARS = 300_000;

/** The verification code and the main link, on top of the email, each one key from the clipboard. */
export function InsightsBar({ email, body }: { email: Email; body: EmailBody | null }) {
  const found = useMemo(() => (body && body.content.length <= INSIGHTS_MAX_CHARS ? insightsOf(email.subject, body) : null), [email.subject, body]);
  if (!found || (!found.code && !found.link)) return null;
  return (
    <div className="insights" role="group" aria-label="Found in this email">
      {found.code && (
        <span>
          Code <code>{found.code.code}</code> <kbd>C</kbd> copies
        </span>
      )}
      {found.link && (
        <span title={found.link.url}>
          Link “{found.link.text || hostOf(found.link.url)}” <kbd>L</kbd> copies
        </span>
      )}
    </div>
  );
}

