/**
 * MailCare as it is (github.com/mailcare/mailcare): /api, no teams, no auth or
 * HTTP Basic, vnd.mailcare.v1, automations with `post_raw` and `action_email`
 * whose PUT replaces every column (a boolean left out is a 500), and which
 * answer 403 when the server has them turned off.
 */
import { MAILCARE } from '../../../shared/flavors/mailcare.ts';
import { unescapeHtmlSpecialChars } from '../../../shared/domain/raw-message.ts';
import { ServiceError } from '../errors.ts';
import { basePath, checkedBase, type ClientFlavor } from './base.ts';

const AUTOMATION_OPERATIONS = new Set(['listAutomations', 'createAutomation', 'updateAutomation', 'deleteAutomation']);

export const mailcare: ClientFlavor = {
  record: MAILCARE,
  apiRoot(baseUrl) {
    const url = checkedBase(baseUrl);
    url.pathname = `${basePath(url)}/api/`;
    return url;
  },
  // The secret is "email:password" for a server with MAILCARE_AUTH on; none otherwise.
  authorization: (secret) => (secret ? `Basic ${Buffer.from(secret, 'utf8').toString('base64')}` : null),
  automationToWire: (input) => ({
    title: input.title,
    sender: input.sender,
    inbox: input.inbox,
    subject: input.subject,
    has_attachments: input.has_attachments,
    action_url: input.action_url,
    action_email: input.action_email,
    action_secret_token: input.action_secret_token,
    action_delete_email: input.action_delete_email,
    post_raw: input.payload_format === 'raw',
  }),
  explain(error, operation) {
    if (error.status === 403 && AUTOMATION_OPERATIONS.has(operation)) {
      return new ServiceError(
        'forbidden',
        'Automations are turned off on this MailCare server (MAILCARE_AUTOMATIONS=false in its settings). Ask its administrator to turn them on.',
        { status: 403 },
      );
    }
    if (error.status === 401) {
      return new ServiceError('auth', 'This MailCare server asks for a login: check the email and password.', { status: 401 });
    }
    return error;
  },
  // MailCare HTML-escapes the stored message with e() (EmailResponse::makeRaw); its output is UTF-8.
  rawBytes: (sent) => Buffer.from(unescapeHtmlSpecialChars(sent.toString('utf8')), 'utf8'),
};
