/**
 * The code and the main link of a stored email, as the API answers them: the
 * same finder the reader runs (shared/domain/mail-insights.ts), on the same
 * body the reader shows first (the HTML part, else the text part). Bodies do
 * not change, so each email's answer is worked out once.
 */
import { insightsOf, type Insights } from '../../shared/domain/mail-insights.ts';
import { LruCache } from '../../shared/lru.ts';
import type { StoredEmail, TeamStore } from '../team-store.ts';

/** What a test gets: the code and the words that named it, the link and its text. Null when the finder is unsure. */
export interface ApiInsights {
  code: { value: string; label: string; in: 'subject' | 'body' } | null;
  link: { url: string; text: string } | null;
}

const answered = new LruCache<string, ApiInsights>({ maxEntries: 2000 });

export function toApiInsights(found: Insights): ApiInsights {
  return {
    code: found.code ? { value: found.code.code, label: found.code.label, in: found.code.in } : null,
    link: found.link ? { url: found.link.url, text: found.link.text } : null,
  };
}

export function insightsFor(team: TeamStore, email: StoredEmail): ApiInsights {
  const key = `${team.id}\u0000${email.id}`;
  const known = answered.get(key);
  if (known) return known;
  const content = team.content(email.id);
  const body = content?.html != null ? { format: 'html' as const, content: content.html } : { format: 'text' as const, content: content?.text ?? '' };
  const result = toApiInsights(insightsOf(email.subject, body));
  answered.set(key, result);
  return result;
}
