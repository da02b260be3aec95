/**
 * MailCare (shared/flavors/mailcare.ts) as the reference service speaks it,
 * down to Laravel 8's bytes: PHP's json_encode, the paginator's links and
 * meta.links, Request::prefers for Accept, its validation messages in its
 * order, NOT NULL columns that make a 500, the HTML error page a browser
 * gets, the raw message through e().
 */
import { isUtf8 } from 'node:buffer';
import type { FastifyRequest } from 'fastify';
import { isEmailAddress, isHttpUrl } from '../../shared/domain/automation.ts';
import { BODY_FORMATS } from '../../shared/domain/email.ts';
import { sizeForHuman } from '../../shared/domain/size.ts';
import { phpJsonEncode } from '../../shared/domain/webhook-payload.ts';
import { MAILCARE } from '../../shared/flavors/mailcare.ts';
import { emailResource } from '../email-resource.ts';
import type { StoredAutomation } from '../team-store.ts';
import { laravelPrefers } from '../negotiate.ts';
import { commonFields, counters, fieldsOfUpdate, fromRecord, type Answer, validateAutomationInput, withPatternCheck, type ListPage, type ServerWire } from './base.ts';

/** A PUT or POST whose columns would break a NOT NULL constraint: MailCare answers 500. */
export class ColumnCannotBeNull extends Error {}

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

/**
 * Laravel's pagination links (LengthAwarePaginator::linkCollection with
 * UrlWindow, three pages each side): Previous, the pages (with "..." where
 * some are left out), Next.
 */
function paginatorLinks(page: number, lastPage: number, pageUrl: (n: number) => string, prev: string | null, next: string | null): { url: string | null; label: string; active: boolean }[] {
  const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
  const window = 6;
  let groups: (number[] | '...')[];
  if (lastPage < window + 8) groups = [range(1, lastPage)];
  else if (page <= window) groups = [range(1, window + 2), '...', range(lastPage - 1, lastPage)];
  else if (page > lastPage - window) groups = [range(1, 2), '...', range(lastPage - (window + 2), lastPage)];
  else groups = [range(1, 2), '...', range(page - 3, page + 3), '...', range(lastPage - 1, lastPage)];
  return [
    { url: prev, label: '&laquo; Previous', active: false },
    ...groups.flatMap((group): { url: string | null; label: string; active: boolean }[] =>
      group === '...' ? [{ url: null, label: '...', active: false }] : group.map((n) => ({ url: pageUrl(n), label: String(n), active: n === page })),
    ),
    { url: next, label: 'Next &raquo;', active: false },
  ];
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#039;');
}

/** Laravel answers JSON errors only when the first acceptable type is JSON; a browser gets its HTML page. */
function wantsJson(request: FastifyRequest): boolean {
  const first = (request.headers.accept ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.includes('/json') || first.includes('+json');
}

/** Request::prefers over [vendor, JSON, HTML, text, raw], less the bodies the email lacks. */
const offers = (offered: { html: boolean; text: boolean }) =>
  [MAILCARE.mediaType, 'application/json', ...(offered.html ? [BODY_FORMATS.html] : []), ...(offered.text ? [BODY_FORMATS.text] : []), BODY_FORMATS.raw];
const LARAVEL_OFFER = [MAILCARE.mediaType, 'application/json', BODY_FORMATS.html, BODY_FORMATS.text, BODY_FORMATS.raw];

/** The list as this server pages it. */
function listBody({ emails, total, page, perPage, query, path }: ListPage): object {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  // Laravel's paginator links carry the page alone.
  const pageUrl = (n: number) => `${path}?page=${n}`;
  const from = emails.length > 0 ? (page - 1) * perPage + 1 : null;
  const prev = page > 1 ? pageUrl(Math.min(page - 1, lastPage)) : null;
  const next = page < lastPage ? pageUrl(page + 1) : null;
  return {
    data: emails.map(mailcareWire.emailResource),
    links: { first: pageUrl(1), last: pageUrl(lastPage), prev, next },
    meta: {
      current_page: page,
      from,
      last_page: lastPage,
      links: paginatorLinks(page, lastPage, pageUrl, prev, next),
      path,
      // Laravel echoes the limit as the query string had it.
      per_page: query.limit ? query.limit : perPage,
      to: from === null ? null : from + emails.length - 1,
      total,
    },
  };
}

const automationResource = (automation: StoredAutomation) => ({
  ...commonFields(automation),
  action_email: automation.action_email,
  action_secret_token: automation.action_secret_token,
  action_delete_email: automation.action_delete_email,
  post_raw: automation.payload_format === 'raw',
  ...counters(automation),
});

/**
 * MailCare's routes (routes/api.php) and their methods in the order Laravel
 * lists them: Route::resource('emails') makes the first two, GET brings HEAD.
 */
const ROUTES: [RegExp, string[]][] = [
  [/^emails$/, ['GET', 'HEAD', 'POST']],
  [/^emails\/create$/, ['GET', 'HEAD']],
  [/^emails\/[^/]+$/, ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']],
  [/^emails\/[^/]+\/edit$/, ['GET', 'HEAD']],
  [/^emails\/[^/]+\/favorites$/, ['POST', 'DELETE']],
  [/^statistics$/, ['GET', 'HEAD']],
  [/^emails\/[^/]+\/attachments\/[^/]+$/, ['GET', 'HEAD']],
  [/^automations$/, ['GET', 'HEAD', 'POST']],
  [/^automations\/[^/]+$/, ['PUT', 'DELETE']],
];

/** An empty 200: a delete, a star, a write; Laravel's default response is HTML. */
const empty = (): Answer => ({ status: 200, type: 'text/html; charset=UTF-8', body: '' });

export const mailcareWire: ServerWire = {
  record: MAILCARE,
  ...fromRecord(MAILCARE, automationResource, empty),
  prefix: '/api',
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
  automationResource,
  checkAutomation: (body, options) => {
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const record = body as Record<string, unknown>;
      // AutomationsController validates first (422), then the insert meets the NOT NULL columns (500).
      const laravelErrors = mailcareValidation(record, options.forward);
      if (laravelErrors) return { ok: false, errors: laravelErrors };
      for (const column of NOT_NULL_BOOLEANS) {
        if (record[column] === undefined || record[column] === null) {
          throw new ColumnCannotBeNull(`SQLSTATE[23000]: Integrity constraint violation: 1048 Column '${column}' cannot be null`);
        }
      }
      const { post_raw, ...rest } = record;
      if (typeof post_raw !== 'boolean') return { ok: false, errors: { post_raw: ['The post raw field must be true or false.'] } };
      return withPatternCheck(validateAutomationInput({ ...rest, payload_format: post_raw ? 'raw' : 'json' }, MAILCARE.name), ['subject', 'sender', 'inbox']);
    }
    return validateAutomationInput(body, MAILCARE.name);
  },
  // Every column is written: what the body leaves out becomes null.
  updateFields: (body, value) => fieldsOfUpdate(MAILCARE.update, body, value),
  list: (page) => ({ status: 200, type: MAILCARE.listMediaType, body: listBody(page) }),
  negotiate: (accept, offered) => laravelPrefers(accept, offers(offered)),
  notAcceptable: () => ({ status: 406, type: 'application/json', body: { error: `Not acceptable 'Accept' header. Please use this list: ${LARAVEL_OFFER.join(',')}.` } }),
  // Laravel's e(): htmlspecialchars without ENT_SUBSTITUTE, which answers '' for bytes that are not UTF-8 (an 8-bit Latin-1 part).
  raw: (bytes) => ({ status: 200, type: 'message/rfc2822; charset=UTF-8', body: isUtf8(bytes) ? escapeHtml(bytes.toString('utf8')) : '' }),
  notFound: (request, { model, id, byValue }) =>
    wantsJson(request)
      ? // ModelNotFoundException: with the id for route binding, without it for a lookup by value (firstOrFail).
        { status: 404, type: 'application/json', body: { message: `No query results for model [App\\${model}]${byValue ? '.' : ` ${id}`}` } }
      : { status: 404, type: 'text/html; charset=UTF-8', body: '<!DOCTYPE html><html><head><title>Not Found</title></head><body><div class="code">404</div><div class="message">Not Found</div></body></html>' },
  // A route MailCare has, asked with a method it lacks: Laravel's MethodNotAllowedHttpException.
  unrouted: (request, path) => {
    const methods = ROUTES.find(([pattern]) => pattern.test(path.replace(/^\/+|\/+$/g, '')))?.[1];
    if (!methods || methods.includes(request.method)) return null;
    const message = `The ${request.method} method is not supported for this route. Supported methods: ${methods.join(', ')}.`;
    return wantsJson(request)
      ? { status: 405, type: 'application/json', body: { message } }
      : { status: 405, type: 'text/html; charset=UTF-8', body: `<!DOCTYPE html><html><head><title>Method Not Allowed</title></head><body><div class="code">405</div><div class="message">${escapeHtml(message)}</div></body></html>` };
  },
  unprocessable: (errors) => ({ status: 422, type: 'application/json', body: { message: 'The given data was invalid.', errors } }),
  empty,
  // JSON as Laravel sends it: PHP's json_encode bytes, application/json without a charset, the vendor type with "; charset=UTF-8".
  json: (value, type) => ({ body: phpJsonEncode(value), type: type.startsWith('application/json') ? 'application/json' : `${type}; charset=UTF-8` }),
};
