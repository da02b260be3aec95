import { z } from 'zod';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 25;

const optionalText = z
  .string()
  .max(500)
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** What the email list may be asked for; every field optional. */
export const ListQuerySchema = z
  .object({
    page: z.number().int().min(1).max(1_000_000).optional(),
    limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional(),
    inbox: optionalText,
    sender: optionalText,
    subject: optionalText,
    since: optionalText,
    until: optionalText,
    search: optionalText,
    unread: z.boolean().optional(),
    favorite: z.boolean().optional(),
  })
  .strict();
export type ListQuery = z.input<typeof ListQuerySchema>;

/** The query string the service understands for a list query. */
export function listQueryToSearchParams(query: ListQuery): URLSearchParams {
  const params = new URLSearchParams();
  const parsed = ListQuerySchema.parse(query);
  for (const key of ['page', 'limit', 'inbox', 'sender', 'subject', 'since', 'until', 'search'] as const) {
    const value = parsed[key];
    if (value !== undefined) params.set(key, String(value));
  }
  if (parsed.unread) params.set('unread', '1');
  if (parsed.favorite) params.set('favorite', '1');
  return params;
}
