/** The API document's service (shared/flavors/service-v1.ts) as the reference service speaks it. */
import { BODY_FORMATS } from '../../shared/domain/email.ts';
import { SERVICE_V1 } from '../../shared/flavors/service-v1.ts';
import { emailResource } from '../email-resource.ts';
import type { StoredAutomation } from '../team-store.ts';
import { negotiate } from '../negotiate.ts';
import { commonFields, counters, fieldsOfUpdate, fromRecord, type Answer, validateAutomationInput, withPatternCheck, type ListPage, type ServerWire } from './base.ts';

const offers = (offered: { html: boolean; text: boolean }) => [
  ...(offered.html ? [BODY_FORMATS.html] : []),
  ...(offered.text ? [BODY_FORMATS.text] : []),
  BODY_FORMATS.raw,
  'application/json',
  SERVICE_V1.mediaType,
];

/** The list as this server pages it. */
function listBody({ emails, total, page, perPage, query, path }: ListPage): object {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  // The links keep the other filters.
  const pageUrl = (n: number) => {
    const params = new URLSearchParams(Object.entries(query).filter(([key]) => key !== 'page'));
    params.set('page', String(n));
    return `${path}?${params}`;
  };
  const from = emails.length > 0 ? (page - 1) * perPage + 1 : null;
  return {
    data: emails.map(emailResource),
    links: { first: pageUrl(1), last: pageUrl(lastPage), prev: page > 1 ? pageUrl(Math.min(page - 1, lastPage)) : null, next: page < lastPage ? pageUrl(page + 1) : null },
    meta: { current_page: page, from, last_page: lastPage, path, per_page: perPage, to: from === null ? null : from + emails.length - 1, total },
  };
}

const automationResource = (automation: StoredAutomation) => ({
  ...commonFields(automation),
  action_secret_token: automation.action_secret_token,
  action_delete_email: automation.action_delete_email,
  payload_format: automation.payload_format,
  ...counters(automation),
});

/** An empty 200: a delete, a star, a write this server answers without a body. */
const empty = (): Answer => ({ status: 200, type: 'text/plain; charset=utf-8', body: '' });

export const serviceV1Wire: ServerWire = {
  record: SERVICE_V1,
  ...fromRecord(SERVICE_V1, automationResource, empty),
  prefix: '/api/teams/:teamId',
  emailResource,
  automationResource,
  // Sender and inbox are addresses here (checked as such); the subject is a pattern.
  checkAutomation: (body) => withPatternCheck(validateAutomationInput(body, SERVICE_V1.name), ['subject']),
  updateFields: (body, value) => fieldsOfUpdate(SERVICE_V1.update, body, value),
  list: (page) => ({ status: 200, type: SERVICE_V1.listMediaType, body: listBody(page) }),
  negotiate: (accept, offered) => negotiate(accept, offers(offered)),
  notAcceptable: (offered) => ({ status: 406, type: 'application/json', body: { error: `Not acceptable 'Accept' header. Please use this list: ${offers(offered).join(', ')}` } }),
  raw: (bytes) => ({ status: 200, type: 'message/rfc2822', body: bytes }),
  notFound: (_request, { model, id }) => ({ status: 404, type: 'application/json', body: { message: `No query results for model [App\\${model}] ${id}` } }),
  unprocessable: (errors) => ({ status: 422, type: 'application/json', body: { message: Object.values(errors).flat()[0] ?? 'The given data was invalid.', errors } }),
  empty,
  // JSON says its charset, the vendor type too.
  json: (value, type) => ({ body: JSON.stringify(value), type: /;\s*charset=/i.test(type) ? type : `${type}; charset=utf-8` }),
};
