/**
 * What the reference service's two wires differ in: the API document's service
 * (`/api/teams/{team}`, Bearer, vnd.service.v1) and MailCare as it is
 * (`/api`, no auth or HTTP Basic, vnd.mailcare.v1, `post_raw` and
 * `action_email`, PUT replaces every column, writes answer an empty 200,
 * automations can be switched off). The routes in app.ts ask this object;
 * they never test a flavor's name.
 */
import { AUTOMATION_INPUT_FIELDS, isEmailAddress, isHttpUrl, validateAutomationInput, type AutomationInput, type Validation } from '../shared/domain/automation.ts';
import type { FlavorName } from '../shared/domain/flavor.ts';
import { compilePattern } from '../shared/domain/pattern.ts';
import { serviceTimestamp } from '../shared/domain/time.ts';
import { emailResource } from './email-resource.ts';
import type { StoredAutomation, StoredEmail } from './team-store.ts';
import { sizeForHuman } from '../shared/domain/size.ts';

export const SERVICE_VENDOR = 'application/vnd.service.v1+json';
export const MAILCARE_VENDOR = 'application/vnd.mailcare.v1+json';

/** A PUT whose columns would break a NOT NULL constraint: MailCare answers 500. */
export class ColumnCannotBeNull extends Error {}

export interface ServerFlavor {
  name: FlavorName;
  /** Route prefix; `:teamId` when paths name a team. */
  prefix: string;
  vendorType: string;
  /** The list's Content-Type. */
  listType: string;
  emailResource(email: StoredEmail): Record<string, unknown>;
  automationResource(automation: StoredAutomation): Record<string, unknown>;
  checkAutomation(body: unknown, options?: { forward?: boolean }): Validation<Required<AutomationInput>>;
  /** The fields an update writes: only those sent, or every column. */
  updateFields(body: Record<string, unknown>, value: Required<AutomationInput>): Partial<Required<AutomationInput>>;
  /** Paths name a team and a Bearer token picks it. */
  teams: boolean;
  /** The raw message goes out HTML-escaped (MailCare's e()). */
  escapesRaw: boolean;
  /** `resource`: 201/200 with `{data}`; `empty`: 200 with an empty body. */
  writeAnswer: 'resource' | 'empty';
  /** Matched mail is deleted even when its webhook failed. */
  deleteRegardless: boolean;
  /**
   * Answers as Laravel does (MailCare): JSON as PHP's json_encode writes it,
   * the paginator's links (page only) and meta.links, per_page as sent,
   * Request::prefers for Accept, and Laravel's validation messages.
   */
  laravel: boolean;
  /** Addresses' display names: a name learned later fills an empty one, or the latest wins (the address when none). */
  addressNames: 'fill' | 'latest';
}

/** Criteria that are patterns must compile on the service's linear-time engine (RE2), within its limits. */
function withPatternCheck(checked: Validation<Required<AutomationInput>>, fields: readonly ('subject' | 'sender' | 'inbox')[]): Validation<Required<AutomationInput>> {
  if (!checked.ok) return checked;
  const errors: Record<string, string[]> = {};
  for (const field of fields) {
    const source = checked.value[field];
    if (source === null) continue;
    const compiled = compilePattern(source);
    if (!compiled.ok) errors[field] = [compiled.message];
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : checked;
}

/** The fields both wires share; each flavor adds its own action fields. */
const commonFields = (automation: StoredAutomation) => ({
  id: automation.id,
  title: automation.title,
  sender: automation.sender,
  inbox: automation.inbox,
  subject: automation.subject,
  has_attachments: automation.has_attachments,
  action_url: automation.action_url,
});

const counters = (automation: StoredAutomation) => ({
  emails_received: automation.emails_received,
  in_error: automation.in_error,
  created_at: serviceTimestamp(automation.created_at),
  updated_at: serviceTimestamp(automation.updated_at),
});

export const SERVICE_V1: ServerFlavor = {
  name: 'service-v1',
  prefix: '/api/teams/:teamId',
  teams: true,
  escapesRaw: false,
  vendorType: SERVICE_VENDOR,
  listType: SERVICE_VENDOR,
  emailResource,
  automationResource: (automation) => ({
    ...commonFields(automation),
    action_secret_token: automation.action_secret_token,
    action_delete_email: automation.action_delete_email,
    payload_format: automation.payload_format,
    ...counters(automation),
  }),
  // Sender and inbox are addresses here (checked as such); the subject is a pattern.
  checkAutomation: (body) => withPatternCheck(validateAutomationInput(body, 'service-v1'), ['subject']),
  // Fields left out of the body keep their value.
  updateFields: (body, value) => Object.fromEntries(AUTOMATION_INPUT_FIELDS.filter((f) => f in body).map((f) => [f, value[f]])),
  writeAnswer: 'resource',
  deleteRegardless: false,
  laravel: false,
  addressNames: 'fill',
};

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
/** Laravel's `boolean` rule: true, false, 0, 1, "0", "1". */
const isLaravelBoolean = (value: unknown) => [true, false, 0, 1, '0', '1'].includes(value as never);

/**
 * AutomationsController's rules, in its order, with Laravel 8's messages:
 * title required; action_url required without action_email, a URL;
 * action_email required without action_url, an email, empty unless
 * forwarding is on (App\Rules\Forward); the booleans booleans. Null when they pass.
 */
function mailcareValidation(record: Record<string, unknown>, forward: boolean): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (isBlank(record.title)) add('title', 'The title field is required.');
  if (!isBlank(record.has_attachment) && !isLaravelBoolean(record.has_attachment)) add('has_attachment', 'The has attachment field must be true or false.');
  if (isBlank(record.action_url) && isBlank(record.action_email)) add('action_url', 'The action url field is required when action email is not present.');
  if (!isBlank(record.action_url) && !(typeof record.action_url === 'string' && isHttpUrl(record.action_url))) add('action_url', 'The action url format is invalid.');
  if (isBlank(record.action_url) && isBlank(record.action_email)) add('action_email', 'The action email field is required when action url is not present.');
  if (!isBlank(record.action_email)) {
    if (!(typeof record.action_email === 'string' && isEmailAddress(record.action_email))) add('action_email', 'The action email must be a valid email address.');
    if (!forward) add('action_email', 'The action email must be empty.');
  }
  if (!isBlank(record.action_delete_email) && !isLaravelBoolean(record.action_delete_email)) add('action_delete_email', 'The action delete email field must be true or false.');
  if (!isBlank(record.post_raw) && !isLaravelBoolean(record.post_raw)) add('post_raw', 'The post raw field must be true or false.');
  return Object.keys(errors).length > 0 ? errors : null;
}

/** MailCare's NOT NULL boolean columns: a PUT or POST that leaves one out fails. */
const NOT_NULL_BOOLEANS = ['has_attachments', 'action_delete_email', 'post_raw'] as const;

export const MAILCARE: ServerFlavor = {
  name: 'mailcare',
  prefix: '/api',
  teams: false,
  escapesRaw: true,
  vendorType: MAILCARE_VENDOR,
  listType: 'application/json',
  // MailCare's EmailResource has no carbon copies.
  emailResource: (email) => {
    const { carbon_copies: _omitted, ...resource } = emailResource(email);
    // ReceiveEmail records an attachment's MIME part length and md5(json_encode(headers)).
    resource.attachments = resource.attachments.map((attachment, index) => {
      const stored = email.attachments[index]!;
      if (stored.partSize === undefined) return attachment;
      return { ...attachment, headers_hashed: stored.headersMd5 ?? attachment.headers_hashed, size_in_bytes: stored.partSize, size_for_human: sizeForHuman(stored.partSize) };
    });
    return resource;
  },
  automationResource: (automation) => ({
    ...commonFields(automation),
    action_email: automation.action_email,
    action_secret_token: automation.action_secret_token,
    action_delete_email: automation.action_delete_email,
    post_raw: automation.payload_format === 'raw',
    ...counters(automation),
  }),
  checkAutomation: (body, options) => {
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const record = body as Record<string, unknown>;
      // AutomationsController validates first (422), then the insert meets the NOT NULL columns (500).
      const laravelErrors = mailcareValidation(record, options?.forward === true);
      if (laravelErrors) return { ok: false, errors: laravelErrors };
      for (const column of NOT_NULL_BOOLEANS) {
        if (record[column] === undefined || record[column] === null) {
          throw new ColumnCannotBeNull(`SQLSTATE[23000]: Integrity constraint violation: 1048 Column '${column}' cannot be null`);
        }
      }
      const { post_raw, ...rest } = record;
      if (typeof post_raw !== 'boolean') return { ok: false, errors: { post_raw: ['The post raw field must be true or false.'] } };
      return withPatternCheck(validateAutomationInput({ ...rest, payload_format: post_raw ? 'raw' : 'json' }, 'mailcare'), ['subject', 'sender', 'inbox']);
    }
    return validateAutomationInput(body, 'mailcare');
  },
  // Every column is written: what the body leaves out becomes null.
  updateFields: (_body, value) => value,
  writeAnswer: 'empty',
  deleteRegardless: true,
  laravel: true,
  addressNames: 'latest',
};

export const SERVER_FLAVORS: Record<FlavorName, ServerFlavor> = { 'service-v1': SERVICE_V1, mailcare: MAILCARE };
