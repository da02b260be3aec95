#!/usr/bin/env node
/**
 * npm run mcp -- [--url URL] [--token TOKEN]: the MCP tools over stdio, for
 * an agent that starts its servers as commands. Pointed at This computer or
 * `npm run catch` (http://127.0.0.1:8025, the default), or at any server of
 * the API document's kind: the URL as its address (`https://mail.example.com`)
 * or with the team (`…/api/teams/{team}`). The token comes from --token or
 * INBOX_DESK_TOKEN. Stdout carries the protocol only; problems go to stderr.
 */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MailSource, type Exchange } from './mail-source.ts';
import { mailMcpServer } from './tools.ts';

const NAME = 'inbox-desk-mcp';
let values: { url?: string; token?: string; team?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: { url: { type: 'string' }, token: { type: 'string' }, team: { type: 'string' }, help: { type: 'boolean' } },
    strict: true,
  }));
} catch (error) {
  console.error(`${NAME}: ${(error as Error).message}`);
  process.exit(2);
}
if (values.help) {
  console.error('Usage: npm run mcp -- [--url http://127.0.0.1:8025] [--team this-computer] [--token TOKEN, or INBOX_DESK_TOKEN]');
  process.exit(0);
}
const given = values.url ?? process.env.INBOX_DESK_URL ?? 'http://127.0.0.1:8025';
const token = values.token ?? process.env.INBOX_DESK_TOKEN ?? '';
let url: URL;
try {
  url = new URL(given);
} catch {
  console.error(`${NAME}: --url ${given} is not an address (http://127.0.0.1:8025, or https://mail.example.com/api/teams/acme)`);
  process.exit(2);
}
if (!token) console.error(`${NAME}: no token (--token or INBOX_DESK_TOKEN): the server will refuse every call`);
// The team's path: as pasted, or this computer's.
const teamPath = /\/api\/teams\/[^/]+/.exec(url.pathname)?.[0] ?? `/api/teams/${encodeURIComponent(values.team ?? 'this-computer')}`;
const origin = url.origin;

const exchange: Exchange = async ({ method, path, accept }) => {
  const response = await fetch(`${origin}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(accept ? { accept } : {}) } });
  return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.text() };
};

const server = mailMcpServer(new MailSource(exchange, teamPath));
await server.connect(new StdioServerTransport());
