/** The tester's bench in main: the link check, the compatibility check, print and PDF, the clipboard. */
import { ServiceError } from '../api/errors.ts';
import { checkLinks, urlsOf } from '../api/link-check.ts';
import type { HandlerDeps, HandlerTable } from '../handlers.ts';
import { printDocument } from '../qa/print-document.ts';
import { runCompat } from '../qa/run-compat.ts';
import { DEFAULT_SPAMD, spamReport } from '../qa/spamc.ts';
import { safeFileName } from '../file-names.ts';
import type { HandlerContext } from './context.ts';

export type QaHandlers = Pick<HandlerTable, 'checkLinks' | 'checkCompatibility' | 'checkSpam' | 'printEmail' | 'copyText'>;

export function qaHandlers(context: HandlerContext, deps: Pick<HandlerDeps, 'compatWorker' | 'print' | 'copyText'>): QaHandlers {
  const { withClient } = context;
  return {
    checkLinks: ({ id }) =>
      withClient(async (c) => {
        const email = c.knownEmail(id) ?? (await c.getEmail(id));
        const html = email.has_html ? (await c.getEmailBody(id, 'html')).content : null;
        const text = email.has_text ? (await c.getEmailBody(id, 'text')).content : null;
        // Asked for by the user, never before; private targets only with main's consent, as for Send test.
        return { links: await checkLinks(urlsOf(html, text), (origin) => context.allowPrivateTarget(origin, 'link-check')) };
      }),
    checkCompatibility: ({ id }) =>
      withClient(async (c) => {
        const email = c.knownEmail(id) ?? (await c.getEmail(id));
        if (!email.has_html) throw new ServiceError('not-found', 'This email has no HTML part to check.');
        if (!deps.compatWorker) throw new ServiceError('unsupported', 'This build has no compatibility check.');
        return runCompat(deps.compatWorker, (await c.getEmailBody(id, 'html')).content);
      }),
    checkSpam: ({ id }) =>
      withClient(async (c) => {
        const address = context.accounts.settings.spamd;
        if (!address) {
          throw new ServiceError('unsupported', `Spam scores are off: set SpamAssassin’s spamd in Settings (usually ${DEFAULT_SPAMD}).`);
        }
        // The stored bytes as they are: what a receiving server's SpamAssassin would read.
        return spamReport(await c.rawMessage(id), address);
      }),
    printEmail: ({ id, html, text, remote, pdf }) =>
      withClient(async (c) => {
        if (!deps.print) throw new ServiceError('unsupported', 'This build cannot print.');
        // The header is main's own record of the email; the body is what the reader shows.
        const email = c.knownEmail(id) ?? (await c.getEmail(id));
        const body = html !== null ? { html } : { text: text ?? '' };
        const date = new Date(email.created_at).toUTCString();
        return deps.print(printDocument({ email, body, remote, date }), pdf ? 'pdf' : 'print', safeFileName(`${email.subject || 'email'}.pdf`));
      }),
    copyText: async ({ text }) => {
      deps.copyText?.(text);
      return null;
    },
  };
}
