/**
 * The reference service's routes, as zod schemas: what each takes in its
 * params, query and body, and what each answers. The validator turns a
 * query that breaks them into the wire's 422; responses are checked against
 * them where the service is asked to (the tests), and typed everywhere.
 */
import { z } from 'zod';
import { WILDCARD_LIMIT as FILTER_LIMIT } from './wildcard.ts';

/** A repeated query parameter (?search=a&search=b) counts by its first value, as PHP and the old routes did. */
const first = (value: unknown) => (Array.isArray(value) ? value[0] : value);
const blankIsAbsent = (value: unknown) => {
  const one = first(value);
  return one === '' ? undefined : one;
};

const filter = (name: string) => z.preprocess(blankIsAbsent, z.string().max(FILTER_LIMIT, `The ${name} may not be greater than ${FILTER_LIMIT} characters.`).optional());
const date = (name: string) =>
  z.preprocess(
    blankIsAbsent,
    z
      .string()
      .refine((text) => !Number.isNaN(new Date(text).getTime()), `The ${name} is not a valid date.`)
      .transform((text) => new Date(text))
      .optional(),
  );
/** Any of "1", "true", "yes"…: what the real service takes as a truthy filter. */
const flag = z.preprocess(first, z.unknown().transform((value) => typeof value === 'string' && !['', '0', 'false', 'no', 'off'].includes(value.toLowerCase())));
/** A page or a limit: a number, or the default when it is not one (the real service is lenient there). */
const count = z.preprocess(first, z.unknown().transform((value) => (typeof value === 'string' && /^\s*[+-]?\d/.test(value) ? Number.parseInt(value, 10) : undefined)));

export const ListQuery = z.object({
  inbox: filter('inbox'),
  sender: filter('sender'),
  subject: filter('subject'),
  search: filter('search'),
  since: date('since'),
  until: date('until'),
  unread: flag,
  favorite: flag,
  page: count,
  limit: count,
  /** One entry per delivery (a message to To, Cc and Bcc at once listed once), as a catcher shows mail. */
  group: z.enum(['delivery']).optional(),
});

/** `whole=delivery`: a read, a star or a delete reaches every row of the email's delivery (the catcher's one message). */
export const WholeQuery = z.object({ whole: z.enum(['delivery']).optional() });

export const DeleteAllQuery = z.object({ through: date('through') });

export const EmailParams = z.object({ teamId: z.string().optional(), id: z.string() });
export const AttachmentParams = EmailParams.extend({ attachmentId: z.string() });
export const AutomationParams = z.object({ teamId: z.string().optional(), id: z.string() });
/** A rule's body is checked by the wire, in the server's own order and words (flavors/). */
export const AutomationBody = z.unknown();

const Timestamp = z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
const ZonelessTimestamp = z.string().regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
const Address = z.object({ id: z.string(), display_name: z.string(), email: z.string(), created_at: Timestamp, updated_at: Timestamp }).strict();
const Attachment = z
  .object({
    id: z.string(),
    email_id: z.string(),
    headers_hashed: z.string(),
    file_name: z.string(),
    content_type: z.string(),
    size_in_bytes: z.number().int().min(0),
    created_at: ZonelessTimestamp,
    updated_at: ZonelessTimestamp,
    size_for_human: z.string(),
  })
  .strict();
export const EmailResource = z
  .object({
    id: z.string(),
    sender: Address,
    inbox: Address,
    carbon_copies: z.array(z.object({ display_name: z.string(), email: z.string() }).strict()).optional(),
    subject: z.string(),
    created_at: Timestamp,
    read: Timestamp.nullable(),
    favorite: z.boolean(),
    has_html: z.boolean(),
    has_text: z.boolean(),
    size_in_bytes: z.number().int().min(0),
    attachments: z.array(Attachment),
    /** In a list grouped by delivery: every recipient of the message (a seed client ignores it). */
    delivered_to: z.array(z.string()).optional(),
  })
  .strict();
const PageUrl = z.string().url();
export const EmailList = z.object({
  data: z.array(EmailResource),
  links: z.object({ first: PageUrl, last: PageUrl, prev: PageUrl.nullable(), next: PageUrl.nullable() }).strict(),
  meta: z
    .object({
      current_page: z.number().int().min(1),
      from: z.number().int().nullable(),
      last_page: z.number().int().min(1),
      links: z.array(z.object({ url: PageUrl.nullable(), label: z.string(), active: z.boolean() }).strict()).optional(),
      path: PageUrl,
      per_page: z.union([z.number().int(), z.string()]),
      to: z.number().int().nullable(),
      total: z.number().int().min(0),
    })
    .strict(),
});
export const AutomationResource = z
  .object({
    id: z.string(),
    title: z.string(),
    sender: z.string().nullable(),
    inbox: z.string().nullable(),
    subject: z.string().nullable(),
    has_attachments: z.boolean(),
    action_url: z.string().nullable(),
    action_email: z.string().nullable().optional(),
    action_secret_token: z.string().nullable(),
    action_delete_email: z.boolean(),
    payload_format: z.enum(['json', 'raw', 'json_with_bodies']).optional(),
    post_raw: z.boolean().optional(),
    emails_received: z.number().int().min(0),
    in_error: z.boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .strict();
export const ErrorBody = z.union([
  z.object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())).optional() }).strict(),
  z.object({ error: z.string() }).strict(),
]);
export const Health = z.object({ status: z.literal('ok'), emails: z.number().int().min(0) }).strict();

/** A query or params that break their schema: the wire answers 422 with these messages, by field. */
export class FieldErrors extends Error {
  readonly errors: Record<string, string[]>;
  constructor(errors: Record<string, string[]>) {
    super('The given data was invalid.');
    this.errors = errors;
  }
}

export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) (errors[String(issue.path[0] ?? '_')] ??= []).push(issue.message);
  return new FieldErrors(errors);
}
