/**
 * Timestamps arrive in two forms: ISO 8601 with an offset (emails, automations)
 * and `YYYY-MM-DD HH:MM:SS` without a zone (attachments, as the real service
 * publishes them; taken as UTC). Both become ISO 8601 in UTC.
 */
const ZONELESS = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2}(?:\.\d+)?)$/;

/** The service's own style, already UTC to the second: the form nearly every timestamp comes in. */
const UTC_SECONDS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:Z|\+00:00)$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * A timestamp already in UTC to the second needs no Date round trip (toISOString
 * is most of the cost of checking a list page): its fields are checked and
 * rewritten as they are. Anything else goes the general way.
 */
function utcSecondsToIso(value: string): string | null {
  const m = UTC_SECONDS.exec(value);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const fits =
    month >= 1 && month <= 12 && day >= 1 && day <= DAYS_IN_MONTH[month - 1]! + (leap ? 1 : 0) &&
    Number(m[4]) <= 23 && Number(m[5]) <= 59 && Number(m[6]) <= 59;
  return fits ? `${value.slice(0, 19)}.000Z` : null;
}

export function normalizeTimestamp(value: string): string | null {
  const fast = utcSecondsToIso(value);
  if (fast !== null) return fast;
  const trimmed = value.trim();
  const zoneless = ZONELESS.exec(trimmed);
  const candidate = zoneless ? `${zoneless[1]}T${zoneless[2]}Z` : trimmed;
  const millis = Date.parse(candidate);
  return Number.isNaN(millis) ? null : new Date(millis).toISOString();
}

/**
 * The service's own style: ISO 8601 with `+00:00`, no milliseconds. A page of
 * the list writes a hundred of these: cut, not matched (years 0–9999; others
 * keep toISOString's own form).
 */
export function serviceTimestamp(date: Date): string {
  const iso = date.toISOString();
  return iso.length === 24 ? `${iso.slice(0, 19)}+00:00` : iso.replace(/\.\d{3}Z$/, '+00:00');
}

/** The attachment style the real service publishes: `2018-01-19 12:23:27`. */
export function zonelessTimestamp(date: Date): string {
  const iso = date.toISOString();
  return iso.length === 24 ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}` : iso.replace('T', ' ').replace(/\.\d{3}Z$/, '');
}
