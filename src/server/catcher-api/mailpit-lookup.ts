/**
 * How Mailpit's routes find what they are asked for: a message (one SMTP
 * delivery, its rows one per recipient) by ID or `latest`, the IDs of a
 * request body, and Mailpit's plain answers (ok, 400, 404).
 */
import type { FastifyReply } from 'fastify';
import type { StoredEmail, TeamStore } from '../team-store.ts';

/**
 * The service stores one email per recipient (the API document's model); Mailpit lists a message
 * once. The rows of one SMTP delivery share its number: one message here, shown by its first row,
 * with every recipient its headers did not name as a Bcc.
 */
export interface Message {
  email: StoredEmail;
  rows: StoredEmail[];
}

/** Rows grouped by their delivery, in the order their first row comes. */
export function messagesOf(emails: StoredEmail[]): Message[] {
  const byDelivery = new Map<number, Message>();
  for (const email of emails) {
    const known = byDelivery.get(email.delivery);
    if (known) known.rows.push(email);
    else byDelivery.set(email.delivery, { email, rows: [email] });
  }
  return [...byDelivery.values()];
}

/** The messages as Mailpit answers them: each with every row of its delivery (the Bcc come from them). */
export function whole(team: TeamStore, messages: Message[]): Message[] {
  return team.deliveries(messages.map((m) => m.email.delivery)).map((rows) => ({ email: rows[0]!, rows }));
}

export const ok = (reply: FastifyReply) => reply.type('text/plain; charset=utf-8').send('ok');
export const notFound = (reply: FastifyReply) => reply.code(404).type('text/plain; charset=utf-8').send('message not found');
export const badRequest = (reply: FastifyReply, message: string) => reply.code(400).type('text/plain; charset=utf-8').send(message);

/** `latest` or an ID: the message, or null. */
export function messageById(team: TeamStore, id: string): Message | null {
  const email = emailById(team, id);
  return email ? (whole(team, [{ email, rows: [email] }])[0] ?? null) : null;
}

/** `latest` or an ID: the email alone (raw, headers, parts and views need no delivery's other rows). */
export const emailById = (team: TeamStore, id: string): StoredEmail | null => (id === 'latest' ? (team.page({}, 0, 1).emails[0] ?? null) : team.getEmail(id));

export interface Ids {
  IDs?: unknown;
  Read?: unknown;
  Search?: unknown;
}

export function idsOf(body: unknown): string[] | null {
  const ids = (body as Ids | null | undefined)?.IDs;
  return Array.isArray(ids) && ids.length > 0 ? ids.map(String) : null;
}
