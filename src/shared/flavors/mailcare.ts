/**
 * MailCare as it is (github.com/mailcare/mailcare, Laravel 8): /api, no auth or
 * HTTP Basic, vnd.mailcare.v1, PHP's JSON, Laravel's paginator and errors,
 * `post_raw` and `action_email`, PUT replaces every column, writes answer an
 * empty 200, automations can be switched off.
 */
import type { FlavorRecord } from './record.ts';

export const MAILCARE = {
  name: 'mailcare',
  label: 'MailCare',
  mediaType: 'application/vnd.mailcare.v1+json',
  listMediaType: 'application/json',
  teams: false,
  auth: 'basic-or-none',
  jsonBytes: 'php',
  escapesRaw: true,
  writeAnswer: 'empty',
  paginator: 'laravel',
  negotiation: 'laravel-prefers',
  deleteAll: false,
  errors: 'laravel8',
  payloadFormats: ['json', 'raw'],
  payloadLabel: 'What the webhook receives (post_raw)',
  forwarding: true,
  addressCriteria: 'regex',
  requiresAction: true,
  update: 'replace',
  deletesOnFailedDelivery: true,
  signs: false,
  headerPrefix: 'X-MailCare',
  titleHeader: 'as-is',
  patternEngine: 'pcre',
  addressNames: 'latest',
  serverSwitches: ['basic', 'no-automations', 'forward'],
} as const satisfies FlavorRecord;
