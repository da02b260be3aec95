/** Automation rules and matching: no schema library, so the renderer can use them cheaply. */
import { DEFAULT_FLAVOR, FLAVOR_RECORDS, type FlavorName } from '../flavors/index.ts';

export const PAYLOAD_FORMATS = ['json', 'raw', 'json_with_bodies'] as const;
export type PayloadFormat = (typeof PAYLOAD_FORMATS)[number];

/** The fields an automation accepts on create and update (seed 2.6). */
export interface AutomationInput {
  title: string;
  sender?: string | null;
  inbox?: string | null;
  subject?: string | null;
  has_attachments?: boolean;
  action_url?: string | null;
  /** MailCare: forward matched mail to this address. */
  action_email?: string | null;
  action_secret_token?: string | null;
  action_delete_email?: boolean;
  payload_format?: PayloadFormat;
}

export const AUTOMATION_INPUT_FIELDS = [
  'title',
  'sender',
  'inbox',
  'subject',
  'has_attachments',
  'action_url',
  'action_email',
  'action_secret_token',
  'action_delete_email',
  'payload_format',
] as const;

export type FieldErrors = Record<string, string[]>;

export type Validation<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

const EMAIL = /^[^\s@<>()[\],;:"]+@[^\s@<>()[\],;:"]+$/;
export const TITLE_MAX = 255;

export function isEmailAddress(value: string): boolean {
  return EMAIL.test(value);
}

export function isHttpUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const { protocol, hostname } = new URL(value);
  return (protocol === 'http:' || protocol === 'https:') && hostname !== '';
}

/** Criteria patterns are capped: the service matches them against every incoming email. */
export const PATTERN_LIMIT = 500;

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'i');
    return true;
  } catch {
    return false;
  }
}

/**
 * The one set of rules for an automation body, shared by the edit form, main
 * (before anything is sent) and the reference service (which answers 422),
 * for the server flavor at hand. Empty strings in optional fields mean "no
 * criterion" and become null.
 */
export function validateAutomationInput(body: unknown, flavor: FlavorName = DEFAULT_FLAVOR): Validation<Required<AutomationInput>> {
  const traits = FLAVOR_RECORDS[flavor];
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, errors: { body: ['The body must be a JSON object.'] } };
  }
  const input = body as Record<string, unknown>;

  const optionalString = (field: string): string | null => {
    const value = input[field];
    if (value === undefined || value === null) return null;
    if (typeof value !== 'string') {
      add(field, `The ${field} must be a string.`);
      return null;
    }
    return value.trim() === '' ? null : value.trim();
  };
  const optionalBoolean = (field: string): boolean => {
    const value = input[field];
    if (value === undefined || value === null) return false;
    if (typeof value !== 'boolean') {
      add(field, `The ${field} field must be true or false.`);
      return false;
    }
    return value;
  };

  let title = '';
  if (typeof input.title !== 'string' || input.title.trim() === '') {
    add('title', 'The title field is required.');
  } else if (input.title.trim().length > TITLE_MAX) {
    add('title', `The title may not be greater than ${TITLE_MAX} characters.`);
  } else {
    title = input.title.trim();
  }

  const addressCriterion = (field: 'sender' | 'inbox'): string | null => {
    const value = optionalString(field);
    if (value === null) return null;
    if (value.length > PATTERN_LIMIT) add(field, `The ${field} may not be greater than ${PATTERN_LIMIT} characters.`);
    else if (traits.addressCriteria === 'address' && !isEmailAddress(value)) add(field, `The ${field} must be a valid email address.`);
    else if (traits.addressCriteria === 'regex' && !compiles(value)) add(field, `The ${field} must be a valid regular expression.`);
    return value;
  };
  const sender = addressCriterion('sender');
  const inbox = addressCriterion('inbox');
  const subject = optionalString('subject');
  if (subject !== null && subject.length > PATTERN_LIMIT) add('subject', `The subject may not be greater than ${PATTERN_LIMIT} characters.`);
  else if (subject !== null && !compiles(subject)) add('subject', 'The subject must be a valid regular expression.');
  const action_url = optionalString('action_url');
  if (action_url !== null && !isHttpUrl(action_url)) add('action_url', 'The action url must be a valid http or https URL.');
  const action_email = optionalString('action_email');
  if (action_email !== null && !traits.forwarding) add('action_email', 'This server cannot forward mail: leave the forward address empty.');
  else if (action_email !== null && !isEmailAddress(action_email)) add('action_email', 'The action email must be a valid email address.');
  if (traits.requiresAction && action_url === null && action_email === null) {
    add('action_url', 'Give a webhook URL or a forward address: this server needs one of them.');
  }
  const action_secret_token = optionalString('action_secret_token');
  const has_attachments = optionalBoolean('has_attachments');
  const action_delete_email = optionalBoolean('action_delete_email');

  let payload_format: PayloadFormat = 'json';
  const format = input.payload_format;
  if (format !== undefined && format !== null) {
    if (typeof format === 'string' && (traits.payloadFormats as readonly string[]).includes(format)) {
      payload_format = format as PayloadFormat;
    } else {
      add('payload_format', `The payload format must be one of: ${traits.payloadFormats.join(', ')}.`);
    }
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    value: {
      title,
      sender,
      inbox,
      subject,
      has_attachments,
      action_url,
      action_email,
      action_secret_token,
      action_delete_email,
      payload_format,
    },
  };
}

/** An automation as the client keeps it (normalised by automation-schema.ts). */
export interface Automation {
  id: string;
  title: string;
  sender: string | null;
  inbox: string | null;
  subject: string | null;
  has_attachments: boolean;
  action_url: string | null;
  action_email: string | null;
  action_secret_token: string | null;
  action_delete_email: boolean;
  payload_format: PayloadFormat;
  emails_received: number;
  in_error: boolean;
  created_at: string | null;
  updated_at: string | null;
}

/** What an automation is matched against. */
export interface MatchTarget {
  subject: string;
  sender: string;
  inbox: string;
  attachmentCount: number;
}

export type Criterion = 'subject' | 'sender' | 'inbox' | 'has_attachments';
