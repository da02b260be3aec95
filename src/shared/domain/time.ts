/**
 * Timestamps arrive in two forms: ISO 8601 with an offset (emails, automations)
 * and `YYYY-MM-DD HH:MM:SS` without a zone (attachments, as the real service
 * publishes them; taken as UTC). Both become ISO 8601 in UTC.
 */
const ZONELESS = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/;

export function normalizeTimestamp(value: string): string | null {
  const trimmed = value.trim();
  const zoneless = ZONELESS.exec(trimmed);
  const candidate = zoneless ? `${zoneless[1]}T${zoneless[2]}Z` : trimmed;
  const millis = Date.parse(candidate);
  return Number.isNaN(millis) ? null : new Date(millis).toISOString();
}

/** The service's own style: ISO 8601 with `+00:00`, no milliseconds. */
export function serviceTimestamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/** The attachment style the real service publishes: `2018-01-19 12:23:27`. */
export function zonelessTimestamp(date: Date): string {
  return date.toISOString().replace('T', ' ').replace(/\.\d{3}Z$/, '');
}
