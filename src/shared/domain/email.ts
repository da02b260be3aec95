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
  /** From a catcher listing one entry per delivery: every recipient of the message (the envelope's). */
  delivered_to: z.array(z.string()).optional(),
});
export type Email = z.infer<typeof EmailSchema>;

/*
 * The common case without zod: a record the way services write it (strings,
 * booleans, whole sizes, nulls) is read here, field by field, in the schema's
 * key order. Anything else (a number sent as a string, a missing address, a
 * bad date) answers null, and EmailSchema reads it, errors and all. A page of
 * a hundred records never seen costs a fifth of what zod takes. The property
 * test (test/unit/email-read.test.ts) holds this to EmailSchema's output.
 */
type Raw = Record<string, unknown>;
const NOT_WELL_FORMED = Symbol('not well formed');

const isRecord = (value: unknown): value is Raw => typeof value === 'object' && value !== null && !Array.isArray(value);

function plainText(value: unknown): string {
  if (value == null) return '';
  if (typeof value === 'string') return value;
  throw NOT_WELL_FORMED;
}

function plainTimestamp(value: unknown): string | null {
  if (value == null) return null;
  if (typeof value === 'string') return normalizeTimestamp(value);
  throw NOT_WELL_FORMED;
}

function plainFlag(value: unknown): boolean {
  if (value == null) return false;
  if (typeof value === 'boolean') return value;
  throw NOT_WELL_FORMED;
}

function plainCount(value: unknown): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  throw NOT_WELL_FORMED;
}

function plainString(value: unknown): string {
  if (typeof value === 'string') return value;
  throw NOT_WELL_FORMED;
}

function plainList<T>(value: unknown, read: (item: unknown) => T): T[] {
  if (value == null) return [];
  if (!Array.isArray(value)) throw NOT_WELL_FORMED;
  return value.map(read);
}

/** A list of strings, present: null is not one (EmailSchema says why). */
function plainStrings(value: unknown): string[] {
  if (!Array.isArray(value)) throw NOT_WELL_FORMED;
  return value.map(plainString);
}

function plainObject(value: unknown): Raw {
  if (isRecord(value)) return value;
  throw NOT_WELL_FORMED;
}

function plainAddress(value: unknown): Address {
  const a = plainObject(value);
  return { id: plainText(a.id), display_name: plainText(a.display_name), email: plainString(a.email), created_at: plainTimestamp(a.created_at), updated_at: plainTimestamp(a.updated_at) };
}

function plainAttachment(value: unknown): Attachment {
  const a = plainObject(value);
  const contentType = a.content_type;
  if (contentType != null && typeof contentType !== 'string') throw NOT_WELL_FORMED;
  return {
    id: plainString(a.id),
    email_id: plainText(a.email_id),
    headers_hashed: plainText(a.headers_hashed),
    file_name: plainText(a.file_name),
    content_type: contentType || 'application/octet-stream',
    size_in_bytes: plainCount(a.size_in_bytes),
    created_at: plainTimestamp(a.created_at),
    updated_at: plainTimestamp(a.updated_at),
    size_for_human: plainText(a.size_for_human),
  };
}

/** The record read without zod when it is well formed; null sends it to EmailSchema. */
export function readWellFormedEmail(raw: unknown): Email | null {
  try {
    const r = plainObject(raw);
    const id = plainString(r.id);
    const createdAt = normalizeTimestamp(plainString(r.created_at));
    if (id === '' || createdAt === null) return null;
    return {
      id,
      sender: plainAddress(r.sender),
      inbox: plainAddress(r.inbox),
      carbon_copies: plainList(r.carbon_copies, (c) => {
        const copy = plainObject(c);
        return { display_name: plainText(copy.display_name), email: plainString(copy.email) };
      }),
      subject: plainText(r.subject),
      created_at: createdAt,
      read: plainTimestamp(r.read),
      favorite: plainFlag(r.favorite),
      has_html: plainFlag(r.has_html),
      has_text: plainFlag(r.has_text),
      size_in_bytes: plainCount(r.size_in_bytes),
      attachments: plainList(r.attachments, plainAttachment),
      ...(r.delivered_to !== undefined ? { delivered_to: plainStrings(r.delivered_to) } : {}),
    };
  } catch (error) {
    if (error === NOT_WELL_FORMED) return null;
    throw error;
  }
}

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
