/** The tester's bench in main: the link check, the compatibility check, print and PDF, the clipboard. */
import { ServiceError } from '../api/errors.ts';
import { brokenFirst, checkLinks, urlsOf } from '../../server/link-check.ts';
import type { BenchPort, DesktopPort, HandlerTable, InspectorPage } from './context.ts';
import type { ServiceClient } from '../api/client.ts';
import type { Email } from '../../shared/domain/email.ts';
import { accessibilityReport, axeRunScript, type AxeAnswer } from '../qa/accessibility.ts';
import { codeChange, halfSize, headerChanges, linkChanges, pixelDiff, readableText, subjectKind, textDiff } from '../qa/compare.ts';
import type { ShownImages } from '../qa/shown-images.ts';
import { printDocument } from '../qa/print-document.ts';
import { runCompat } from '../qa/run-compat.ts';
import { DEFAULT_SPAMD, spamReport, SpamdError } from '../../server/spamc.ts';
import { safeFileName } from '../file-names.ts';
import type { HandlerContext } from './context.ts';

export type QaHandlers = Pick<
  HandlerTable,
  'checkLinks' | 'checkCompatibility' | 'checkSpam' | 'checkAccessibility' | 'previousOfKind' | 'compareEmails' | 'printEmail' | 'copyText'
>;

/** The width the accessibility check lays an email out at (a desktop client's reading pane). */
const ACCESSIBILITY_WIDTH = 800;
/** How many of the sender's newest emails are looked through for the one before (two list pages). */
const KIND_SEARCH_PAGES = 2;

/** An email's record, from what main knows or read (a JSON read marks it read, as opening it would). */
const recordOf = async (c: ServiceClient, id: string): Promise<Email> => c.knownEmail(id) ?? (await c.getEmail(id));

/** The body a comparison reads: the text part where there is one (what a reader without HTML reads), else the HTML. */
async function readableBody(c: ServiceClient, email: Email): Promise<{ format: 'html' | 'text'; content: string }> {
  if (email.has_text) return { format: 'text', content: (await c.getEmailBody(email.id, 'text')).content };
  if (email.has_html) return { format: 'html', content: (await c.getEmailBody(email.id, 'html')).content };
  return { format: 'text', content: '' };
}

/** Links live in the HTML where there is one. */
async function linkBody(c: ServiceClient, email: Email): Promise<{ format: 'html' | 'text'; content: string }> {
  return email.has_html ? { format: 'html', content: (await c.getEmailBody(email.id, 'html')).content } : readableBody(c, email);
}

/** Opens `document` in the inspector, runs `use`, and closes it whatever happened. */
async function inspect<T>(inspector: NonNullable<BenchPort['inspector']>, document: string, width: number, use: (page: InspectorPage) => Promise<T>): Promise<T> {
  const page = await inspector(document, width);
  try {
    return await use(page);
  } finally {
    page.close();
  }
}

/** What the page answered, held to the shape the report reads (an email's DOM is hostile; an odd answer is a failed check, not a crash). */
function asAxeAnswer(value: unknown): AxeAnswer {
  const answer = value as AxeAnswer | null;
  const ok =
    answer !== null &&
    typeof answer === 'object' &&
    Array.isArray(answer.violations) &&
    typeof answer.elements?.checked === 'number' &&
    typeof answer.elements.total === 'number' &&
    answer.violations.every((v) => typeof v.id === 'string' && typeof v.help === 'string' && Array.isArray(v.nodes) && v.nodes.every((n) => typeof n.html === 'string'));
  if (!ok) throw new ServiceError('bad-response', 'The accessibility check gave no answer it could read.');
  return answer;
}

export function qaHandlers(
  context: HandlerContext,
  deps: Pick<DesktopPort, 'print' | 'copyText'> & BenchPort,
  shownImages: ShownImages,
): QaHandlers {
  const { withClient } = context;
  return {
    checkLinks: ({ id }) =>
      withClient(async (c) => {
        const email = c.knownEmail(id) ?? (await c.getEmail(id));
        const html = email.has_html ? (await c.getEmailBody(id, 'html')).content : null;
        const text = email.has_text ? (await c.getEmailBody(id, 'text')).content : null;
        // Asked for by the user, never before; private targets only with main's consent, as for Send test.
        return { links: brokenFirst(await checkLinks(urlsOf(html, text), (origin) => context.allowPrivateTarget(origin, 'link-check'))) };
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
        return spamReport(await c.rawMessage(id), address).catch((error: unknown) => {
          throw error instanceof SpamdError ? new ServiceError(error.kind, error.message) : error;
        });
      }),
    checkAccessibility: async ({ light, dark }) => {
      const { inspector, axeSource } = deps;
      if (!inspector || !axeSource) throw new ServiceError('unsupported', 'This build has no accessibility check.');
      const engine = await axeSource();
      const run = (document: string) =>
        inspect(inspector, document, ACCESSIBILITY_WIDTH, async (page) => {
          await page.evaluate(engine);
          return asAxeAnswer(await page.evaluate(axeRunScript()));
        });
      // One after the other: two hidden windows at once would double the memory for nothing.
      const lightAnswer = await run(light);
      return accessibilityReport(lightAnswer, await run(dark));
    },
    previousOfKind: ({ id }) =>
      withClient(async (c) => {
        const email = await recordOf(c, id);
        const kind = subjectKind(email.subject);
        // A second past this email's time: a server that keeps whole seconds lists it and its neighbours.
        const until = new Date(Date.parse(email.created_at) + 1000).toISOString();
        let passed = false;
        for (let page = 1; page <= KIND_SEARCH_PAGES; page++) {
          // The sender's emails up to this one (a server that does not know `until` lists them all), newest first.
          const listing = await c.listEmails({ sender: email.sender.email, until, page, limit: 50 });
          for (const other of listing.data) {
            // Those listed above this email are newer, whatever their time says; below it, the first of its kind.
            if (other.id === id) {
              passed = true;
              continue;
            }
            const older = passed || Date.parse(other.created_at) < Date.parse(email.created_at);
            if (older && subjectKind(other.subject) === kind) return { id: other.id, subject: other.subject, date: other.created_at };
          }
          if (listing.meta.current_page >= listing.meta.last_page) break;
        }
        return null;
      }),
    compareEmails: ({ id, baseId, documents, width }) =>
      withClient(async (c) => {
        const [current, base] = [await recordOf(c, id), await recordOf(c, baseId)];
        const [currentText, baseText] = [await readableBody(c, current), await readableBody(c, base)];
        const [currentLinks, baseLinks] = [await linkBody(c, current), await linkBody(c, base)];
        const [currentHead, baseHead] = [await c.headerSection(id, { fetch: true }), await c.headerSection(baseId, { fetch: true })];
        let pixels = null;
        let images: { base: string | null; current: string | null } = { base: null, current: null };
        if (documents && deps.inspector) {
          const inspector = deps.inspector;
          // The same width for both: what changed is the template, not the window.
          const shot = (document: string) => inspect(inspector, document, width, (page) => page.screenshot());
          const baseShot = await shot(documents.base);
          const currentShot = await shot(documents.current);
          pixels = pixelDiff(baseShot, currentShot);
          images = { base: shownImages.put(halfSize(baseShot)), current: shownImages.put(halfSize(currentShot)) };
        }
        const side = (email: Email, image: string | null) => ({ id: email.id, subject: email.subject, date: email.created_at, image });
        const text = await textDiff(readableText(baseText), readableText(currentText));
        return {
          base: side(base, images.base),
          current: side(current, images.current),
          text: text.lines,
          changedLines: text.changed,
          textNote: text.note,
          headers: headerChanges(baseHead ?? '', currentHead ?? ''),
          links: linkChanges(baseLinks, currentLinks),
          code: codeChange({ subject: base.subject, body: baseLinks }, { subject: current.subject, body: currentLinks }),
          pixels,
        };
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
