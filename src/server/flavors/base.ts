/**
 * A server kind's wire in the reference service: how it names resources,
 * checks rule bodies, pages, negotiates Accept, shapes errors and writes
 * JSON. The routes (../routes/) ask the wire and never a flavor's name; each
 * wire reads its constants from its record (src/shared/flavors/).
 */
import type { FastifyRequest } from 'fastify';
import { AUTOMATION_INPUT_FIELDS, validateAutomationInput, type AutomationInput, type Validation } from '../../shared/domain/automation.ts';
import { compilePattern } from '../../shared/domain/pattern.ts';
import { serviceTimestamp } from '../../shared/domain/time.ts';
import type { FlavorName, FlavorRecord } from '../../shared/flavors/index.ts';
import type { StoredAutomation, StoredEmail } from '../team-store.ts';

/** An answer the routes send as it is: a status, a Content-Type and a body (an object goes through the wire's JSON). */
export interface Answer {
  status: number;
  type: string;
  body: string | Buffer | object;
  headers?: Record<string, string>;
}

export interface ListPage {
  emails: StoredEmail[];
  total: number;
  page: number;
  perPage: number;
  /** The query as the client sent it (for the links and Laravel's per_page). */
  query: Record<string, string>;
  /** The list's own URL, without a query. */
  path: string;
}

export interface ServerWire {
  record: FlavorRecord & { name: FlavorName };
  /** The routes' prefix: /api/teams/:teamId or /api. */
  prefix: string;
  emailResource(email: StoredEmail): Record<string, unknown>;
  automationResource(automation: StoredAutomation): Record<string, unknown>;
  /** A rule body checked as this server checks it (its messages, its order, its 500s). */
  checkAutomation(body: unknown, options: { forward: boolean }): Validation<Required<AutomationInput>>;
  /** What an update writes: the fields sent, or every column. */
  updateFields(body: Record<string, unknown>, value: Required<AutomationInput>): Partial<Required<AutomationInput>>;
  /** The list's answer: its body and its Content-Type. */
  list(page: ListPage): Answer;
  /** DELETE /emails is a route of this server's. */
  deletesAll: boolean;
  /** Where the API sits for a team: /api/teams/{team} or /api. */
  apiPath(teamId: string): string;
  /** A rule written (201 created, 200 updated): the rule, or an empty 200. */
  written(status: 200 | 201, automation: StoredAutomation): Answer;
  /** The Content-Type an email asked for, or null (406). */
  negotiate(accept: string | undefined, offered: { html: boolean; text: boolean }): string | null;
  notAcceptable(offered: { html: boolean; text: boolean }): Answer;
  raw(bytes: Buffer): Answer;
  /**
   * A request no route answers: this server's own answer, or null for the plain 404. (MailCare, as
   * Laravel, answers 405 with the methods the route has.) `path` is under the API prefix.
   */
  unrouted?(request: FastifyRequest, path: string): Answer | null;
  /** A model not found: by its id in the path, or looked up by a value (an inbox or sender filter). */
  notFound(request: FastifyRequest, what: { model: string; id: string; byValue?: boolean }): Answer;
  unprocessable(errors: Record<string, string[]>): Answer;
  /** An empty 200 (a delete, a star, a write this server answers without a body). */
  empty(): Answer;
  /** The bytes of a JSON body, and the Content-Type it goes out with. */
  json(value: unknown, type: string): { body: string; type: string };
}

/** Criteria that are patterns must compile on the service's linear-time engine (RE2), within its limits. */
export function withPatternCheck(checked: Validation<Required<AutomationInput>>, fields: readonly ('subject' | 'sender' | 'inbox')[]): Validation<Required<AutomationInput>> {
  if (!checked.ok) return checked;
  const errors: Record<string, string[]> = {};
  for (const field of fields) {
    const source = checked.value[field];
    if (source === null) continue;
    const compiled = compilePattern(source);
    if (!compiled.ok) errors[field] = [compiled.message];
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : checked;
}

/** A PUT that keeps fields left out writes the fields sent; one that replaces writes them all. */
export function fieldsOfUpdate(update: FlavorRecord['update'], body: Record<string, unknown>, value: Required<AutomationInput>): Partial<Required<AutomationInput>> {
  return update === 'replace' ? value : Object.fromEntries(AUTOMATION_INPUT_FIELDS.filter((f) => f in body).map((f) => [f, value[f]]));
}

/** The fields every wire's rule has; each adds its own action fields. */
export const commonFields = (automation: StoredAutomation) => ({
  id: automation.id,
  title: automation.title,
  sender: automation.sender,
  inbox: automation.inbox,
  subject: automation.subject,
  has_attachments: automation.has_attachments,
  action_url: automation.action_url,
});

export const counters = (automation: StoredAutomation) => ({
  emails_received: automation.emails_received,
  in_error: automation.in_error,
  created_at: serviceTimestamp(automation.created_at),
  updated_at: serviceTimestamp(automation.updated_at),
});

export { validateAutomationInput };

/** What both wires derive from their record alone. */
export function fromRecord(record: FlavorRecord, automationResource: (automation: StoredAutomation) => Record<string, unknown>, empty: () => Answer): Pick<ServerWire, 'apiPath' | 'written' | 'deletesAll'> {
  return {
    deletesAll: record.deleteAll,
    apiPath: (teamId) => (record.teams ? `/api/teams/${encodeURIComponent(teamId)}` : '/api'),
    written: (status, automation) => (record.writeAnswer === 'empty' ? empty() : { status, type: record.mediaType, body: { data: automationResource(automation) } }),
  };
}
