/**
 * The MCP server a coding agent talks to (the official TypeScript SDK): wait
 * for an email, get its code or its main link, list, read one, delete. Every
 * tool answers in a sentence an agent can act on, and in structured content
 * a program can read; a failure is a tool error with the reason, never a
 * crash of the server.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { htmlTextAndLinks } from '../../shared/domain/mail-insights.ts';
import { MAX_WAIT_SECONDS } from '../catcher-api/waits.ts';
import { SourceError, type MailSource } from './mail-source.ts';

const result = (text: string, structured?: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text }],
  ...(structured ? { structuredContent: structured } : {}),
});
const failure = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

async function guarded(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SourceError) return failure(error.message);
    return failure(`The mail server could not be reached: ${error instanceof Error ? error.message : String(error)}`);
  }
}

const which = {
  id: z.string().optional().describe('The email id (from wait_for_email or list_emails); without it, the latest email (to `to`, when given).'),
  to: z.string().optional().describe('The recipient address, to take the latest email sent to it.'),
};

export function mailMcpServer(source: MailSource, name = 'inbox-desk'): McpServer {
  const server = new McpServer({ name, version: '1.0.0' });

  const pick = async ({ id, to }: { id?: string | undefined; to?: string | undefined }) => {
    if (id) return id;
    const latest = await source.latest(to ? { to } : {});
    if (!latest) throw new SourceError(to ? `No email to ${to} yet.` : 'No email yet.');
    return latest.id;
  };

  server.registerTool(
    'wait_for_email',
    {
      title: 'Wait for an email',
      description:
        'Waits until an email arrives (to an address, with a subject, from a sender) and answers it with its one-time code and main link. Call it right after the action that sends the email; pass `after` (a cursor from an earlier answer) to be sure to get only mail sent after that point.',
      inputSchema: {
        to: z.string().optional().describe('The recipient address the app under test sent to.'),
        subject: z.string().optional().describe('The subject, `*` as a wildcard ("Verify*").'),
        from: z.string().optional().describe('The sender address.'),
        timeout_seconds: z.number().min(0).max(MAX_WAIT_SECONDS).optional().describe(`How long to wait, in seconds (default 60, at most ${MAX_WAIT_SECONDS}).`),
        after: z.string().optional().describe('A cursor from an earlier answer: only mail that arrived after it.'),
      },
    },
    async (args) =>
      guarded(async () => {
        const filters = { ...(args.to ? { to: args.to } : {}), ...(args.subject ? { subject: args.subject } : {}), ...(args.from ? { from: args.from } : {}) };
        const timeout = args.timeout_seconds ?? 60;
        const arrived = await source.wait(filters, timeout, args.after);
        if (!arrived) return failure(`No email${args.to ? ` to ${args.to}` : ''}${args.subject ? ` with subject "${args.subject}"` : ''} arrived within ${timeout} s.`);
        const found = await source.insights(arrived.email.id);
        const lines = [
          `Email ${arrived.email.id} from ${arrived.email.from} to ${arrived.email.to}: "${arrived.email.subject}".`,
          found.code ? `Code: ${found.code.value} (labelled "${found.code.label}").` : 'No one-time code found in it.',
          found.link ? `Main link: ${found.link.url}` : 'No main link found in it.',
        ];
        return result(lines.join('\n'), { ...arrived.email, code: found.code?.value ?? null, link: found.link?.url ?? null, cursor: arrived.cursor });
      }),
  );

  server.registerTool(
    'get_code',
    { title: 'Get the one-time code', description: 'The verification / sign-in / 2FA code of an email, or of the latest email to an address. Answers an error when the email has no code its labels vouch for.', inputSchema: which },
    async (args) =>
      guarded(async () => {
        const id = await pick(args);
        const { code } = await source.insights(id);
        if (!code) return failure(`Email ${id} has no code the finder is sure of.`);
        return result(code.value, { id, code: code.value, label: code.label, in: code.in });
      }),
  );

  server.registerTool(
    'get_link',
    { title: 'Get the main link', description: 'The main call-to-action link (verify, reset, sign in, accept invitation) of an email, or of the latest email to an address.', inputSchema: which },
    async (args) =>
      guarded(async () => {
        const id = await pick(args);
        const { link } = await source.insights(id);
        if (!link) return failure(`Email ${id} has no main link the finder is sure of.`);
        return result(link.url, { id, url: link.url, text: link.text });
      }),
  );

  server.registerTool(
    'list_emails',
    {
      title: 'List emails',
      description: 'The newest emails, newest first, optionally to an address, from a sender, with a subject (`*` wildcard) or holding a word.',
      inputSchema: {
        to: z.string().optional(),
        from: z.string().optional(),
        subject: z.string().optional(),
        search: z.string().optional().describe('Words found in the subject or the addresses.'),
        limit: z.number().int().min(1).max(100).optional(),
      },
    },
    async (args) =>
      guarded(async () => {
        const emails = await source.list({
          ...(args.to ? { to: args.to } : {}),
          ...(args.from ? { from: args.from } : {}),
          ...(args.subject ? { subject: args.subject } : {}),
          ...(args.search ? { search: args.search } : {}),
          limit: args.limit ?? 20,
        });
        const text = emails.length === 0 ? 'No emails.' : emails.map((e) => `${e.id}  ${e.received}  ${e.from} -> ${e.to}  "${e.subject}"`).join('\n');
        return result(text, { emails });
      }),
  );

  server.registerTool(
    'get_email',
    {
      title: 'Read an email',
      description: 'One email: its headers, its text, and its HTML as text (sanitized: no markup, links listed), with its code and main link.',
      inputSchema: { ...which, max_chars: z.number().int().min(100).max(200_000).optional().describe('How much of each body (default 20,000 characters).') },
    },
    async (args) =>
      guarded(async () => {
        const id = await pick(args);
        const email = await source.email(id);
        const limit = args.max_chars ?? 20_000;
        const raw = await source.body(id, 'raw');
        const headers = raw.split(/\r?\n\r?\n/)[0] ?? '';
        const text = email.has_text ? (await source.body(id, 'text')).slice(0, limit) : '';
        const html = email.has_html ? htmlTextAndLinks((await source.body(id, 'html')).slice(0, 400_000)) : null;
        const htmlText = html ? html.text.slice(0, limit) : '';
        const found = await source.insights(id);
        const parts = [
          `Headers:\n${headers}`,
          email.has_text ? `Text part:\n${text}` : 'No text part.',
          html ? `HTML part, as text:\n${htmlText}\n\nLinks:\n${html.links.map((l) => `- ${l.text || '(no text)'}: ${l.url}`).join('\n')}` : 'No HTML part.',
          found.code ? `Code: ${found.code.value}` : 'No code found.',
          found.link ? `Main link: ${found.link.url}` : 'No main link found.',
        ];
        return result(parts.join('\n\n'), { id, subject: email.subject, headers, text, html_text: htmlText, code: found.code?.value ?? null, link: found.link?.url ?? null });
      }),
  );

  server.registerTool(
    'delete_emails',
    {
      title: 'Delete emails',
      description: 'Deletes one email by id, or every email with `all: true` (to start a test from an empty inbox).',
      inputSchema: { id: z.string().optional(), all: z.boolean().optional() },
      annotations: { destructiveHint: true },
    },
    async (args) =>
      guarded(async () => {
        if (!args.id && args.all !== true) return failure('Say which: an `id`, or `all: true`.');
        const deleted = await source.delete(args.id ?? null);
        return result(args.id ? `Deleted ${args.id}.` : `Deleted ${deleted} emails.`, { deleted });
      }),
  );

  return server;
}
