/** What a page of the inbox is asked as and shows: pure, for the slice and its writes. */
import type { Results } from '../../../../shared/contract.ts';
import type { Email } from '../../../../shared/domain/email.ts';
import type { ListQuery } from '../../../../shared/domain/list-query.ts';
import { parseSearch, planSearch } from '../../../../shared/domain/search-query.ts';

/** The search box's plan for a page: what the server is asked, what is narrowed here, what is wrong. Pure. */
export function listQueryFor(search: string, page: number, pageSize: number, now: Date = new Date()) {
  const parsed = parseSearch(search, now);
  const plan = planSearch(parsed, now);
  const query: ListQuery = { page, limit: pageSize, ...plan.query };
  return { query, onPage: plan.onPage, partial: plan.partial, errors: parsed.errors };
}

/** The rows shown: the page, narrowed by what the server cannot filter on. Pure. */
export function visibleRows(list: Results['listEmails'] | null, search: string): Email[] {
  if (!list) return [];
  const { onPage } = listQueryFor(search, 1, 1);
  return onPage.hasAttachment ? list.data.filter((e) => e.attachments.length > 0) : list.data;
}

/** Mail in a polled page 1 that the list on screen does not show yet, newest first. Pure. */
export function arrivals(shown: Email[], polled: Email[]): Email[] {
  const known = new Set(shown.map((e) => e.id));
  const newest = shown.reduce((max, e) => (e.created_at > max ? e.created_at : max), '');
  return polled.filter((e) => !known.has(e.id) && e.created_at >= newest);
}
