import { z } from 'zod';
import type { ReaderHeaders } from './reader-headers.ts';
import { normalizeTimestamp } from './time.ts';

/**
 * The email resource as the client keeps it: validated and normalised from
 * whatever the server sent. Unknown extra fields are dropped, optional ones
 * missing or null become explicit defaults, and timestamps become ISO UTC.
 */

const text = z
  .string()
  .nullish()
  .transform((v) => v ?? '');

const timestamp = z
  .string()
  .nullish()
  .transform((v) => (v == null ? null : normalizeTimestamp(v)));

const count = z.coerce.number().int().nonnegative();

export const AddressSchema = z.object({
  id: text,
  display_name: text,
  email: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
});
export type Address = z.infer<typeof AddressSchema>;

export const CarbonCopySchema = z.object({
  display_name: text,
  email: z.string(),
});
export type CarbonCopy = z.infer<typeof CarbonCopySchema>;

export const AttachmentSchema = z.object({
  id: z.string(),
  email_id: text,
  headers_hashed: text,
  file_name: text,
  content_type: z
    .string()
    .nullish()
    .transform((v) => v || 'application/octet-stream'),
  size_in_bytes: count.catch(0),
  created_at: timestamp,
  updated_at: timestamp,
  size_for_human: text,
});
export type Attachment = z.infer<typeof AttachmentSchema>;

export const EmailSchema = z.object({
  id: z.string().min(1),
  sender: AddressSchema,
  inbox: AddressSchema,
  carbon_copies: z
    .array(CarbonCopySchema)
    .nullish()
    .transform((v) => v ?? []),
  subject: text,
  created_at: z.string().transform((v, ctx) => {
    const iso = normalizeTimestamp(v);
    if (iso === null) {
      ctx.addIssue({ code: 'custom', message: `not a date: ${v}` });
      return z.NEVER;
    }
    return iso;
  }),
  // null while unread; the time it was first read otherwise.
  read: timestamp,
  favorite: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  has_html: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  has_text: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  size_in_bytes: count.catch(0),
  attachments: z
    .array(AttachmentSchema)
    .nullish()
    .transform((v) => v ?? []),
});
export type Email = z.infer<typeof EmailSchema>;

const link = z
  .string()
  .nullish()
  .transform((v) => v ?? null);
const nullableCount = z.coerce.number().int().nullish().transform((v) => v ?? null);

export const EmailPageSchema = z.object({
  data: z.array(EmailSchema),
  links: z
    .object({ first: link, last: link, prev: link, next: link })
    .nullish()
    .transform((v) => v ?? { first: null, last: null, prev: null, next: null }),
  meta: z.object({
    current_page: z.coerce.number().int().positive(),
    from: nullableCount,
    last_page: z.coerce.number().int().nonnegative(),
    path: text,
    per_page: z.coerce.number().int().positive(),
    to: nullableCount,
    total: z.coerce.number().int().nonnegative(),
  }),
});
export type EmailPage = z.infer<typeof EmailPageSchema>;


export { BODY_FORMATS, preferredFormat, type BodyFormat } from './body-format.ts';
import type { BodyFormat } from './body-format.ts';

export interface EmailBody {
  format: BodyFormat;
  contentType: string;
  content: string;
  /** Set when `content` is the clipped start of the body (clip.ts): the whole body's length. */
  total?: number;
  /**
   * What the sending app wrote (From, To, Date…, reader-headers.ts), where main
   * had it at no cost: always from the app's own services, from a remote server
   * once its raw message is here.
   */
  sent?: ReaderHeaders;
  /** Asked with sourceLines: how many characters the line attributes added (the size limits count the email's own). */
  taggedChars?: number;
}
