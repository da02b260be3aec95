import { z } from 'zod';
import { PAYLOAD_FORMATS, type Automation } from './automation.ts';
import { normalizeTimestamp } from './time.ts';

const timestamp = z
  .string()
  .nullish()
  .transform((v) => (v == null ? null : normalizeTimestamp(v)));
const nullableText = z
  .string()
  .nullish()
  .transform((v) => (v == null || v === '' ? null : v));
const flag = z
  .union([z.boolean(), z.number()])
  .nullish()
  .transform((v) => Boolean(v));

/**
 * An automation as either flavor returns it (a superset of 2.6), normalised:
 * MailCare's boolean `post_raw` becomes the payload format it stands for.
 */
export const AutomationSchema = z
  .object({
  id: z.string().min(1),
  title: z
    .string()
    .nullish()
    .transform((v) => v ?? ''),
  sender: nullableText,
  inbox: nullableText,
  subject: nullableText,
  has_attachments: flag,
  action_url: nullableText,
  action_email: nullableText,
  action_secret_token: nullableText,
  action_delete_email: flag,
  payload_format: z.enum(PAYLOAD_FORMATS).nullish().catch('json').transform((v) => v ?? 'json'),
  emails_received: z.coerce.number().int().nonnegative().nullish().catch(0).transform((v) => v ?? 0),
  in_error: flag,
  created_at: timestamp,
  updated_at: timestamp,
  post_raw: z.union([z.boolean(), z.number()]).nullish(),
})
  .transform(({ post_raw, ...automation }) =>
    post_raw === undefined || post_raw === null ? automation : { ...automation, payload_format: post_raw ? ('raw' as const) : ('json' as const) },
  ) satisfies z.ZodType<Automation>; // its output is exactly the Automation the app uses

