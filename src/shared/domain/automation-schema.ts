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

/** An automation as the service returns it (a superset of 2.6), normalised. */
export const AutomationSchema = z.object({
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
  action_secret_token: nullableText,
  action_delete_email: flag,
  payload_format: z.enum(PAYLOAD_FORMATS).nullish().catch('json').transform((v) => v ?? 'json'),
  emails_received: z.coerce.number().int().nonnegative().nullish().catch(0).transform((v) => v ?? 0),
  in_error: flag,
  created_at: timestamp,
  updated_at: timestamp,
}) satisfies z.ZodType<Automation>; // its output is exactly the Automation the app uses

