import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { RateLimitState } from '../../shared/contract.ts';
import type { Automation, AutomationInput } from '../../shared/domain/automation.ts';
import { AutomationSchema } from '../../shared/domain/automation-schema.ts';
import {
  BODY_FORMATS,
  EmailSchema,
  EmailPageSchema,
  type BodyFormat,
  type Email,
  type EmailBody,
  type EmailPage,
} from '../../shared/domain/email.ts';
import { CLIP_CHARS, clipBody } from '../../shared/domain/clip.ts';
import type { FlavorName } from '../../shared/flavors/index.ts';
import { listQueryToSearchParams, type ListQuery } from '../../shared/domain/list-query.ts';
import { ServiceError } from './errors.ts';
import { clientFlavor, type ClientFlavor, type Operation } from './flavors/index.ts';
import { RateBudget, type Priority } from './rate-budget.ts';
import { errorFromException } from './errors.ts';
import { abortableSleep, exchange, type HttpOptions, type RateLimitReading, type RawResponse } from './http.ts';
import { LruCache } from '../../shared/lru.ts';
import { displayRaw } from '../../shared/domain/raw-message.ts';

export interface Connection {
  baseUrl: string;
  /** Empty for servers without teams (MailCare). */
  teamId: string;
  /** The bearer token, MailCare's "email:password", or null for a server without auth. */
  token: string | null;
  flavor?: FlavorName;
}

/** A list page; when a filter names an address the server has never seen, an empty page that says so. */
export type EmailListing = EmailPage & { unknownAddress?: { field: 'inbox' | 'sender'; value: string } };

/** Caps, stated once. */
export const LIMITS = {
  jsonBytes: 5_000_000,
  bodyBytes: 30_000_000,
  attachmentBytes: 100_000_000,
  cachedEmails: 1000,
  cachedBodies: 200,
  cachedBodyBytes: 40_000_000,
  cachedPages: 50,
  /** A list page younger than this is answered from memory. */
  pageFreshMs: 5_000,
  /** Requests background work (marking read, prefetch) leaves in the rate window for reading. */
  prefetchReserve: 10,
} as const;

/** A header section longer than this is read no further (a message's headers are some kilobytes). */
const HEADER_SECTION_BYTES = 64 * 1024;

export const DEFAULT_HTTP: HttpOptions = {
  timeoutMs: 15_000,
  maxRetries: 2,
  maxRetryWaitMs: 10_000,
  backoffBaseMs: 400,
  sleep: abortableSleep,
  rateWindowMs: 60_000,
};

/** Operations the seed leaves out: a server may lack them (404/405/501 on the route). */
const OPTIONAL: ReadonlySet<Operation> = new Set([
  'deleteEmail',
  'deleteAllEmails',
  'setFavorite',
  'getAttachment',
  'listAutomations',
  'createAutomation',
  'deleteAutomation',
]);

interface RequestSpec {
  operation: Operation;
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  path: string;
  accept?: string;
  body?: unknown;
  maxBytes?: number;
  /** Read no more of a longer body than this (http.ts readCapped). */
  headBytes?: number;
  /** A newer request for the same view cancels the older one. */
  view?: string;
  /** Reading (the user waits) or background (marking read, prefetch): see rate-budget.ts. */
  priority?: Priority;
}

/** A normalised URL for the API root; refuses what is not http(s). */
export function apiRoot(baseUrl: string, teamId: string, flavor?: FlavorName): URL {
  return clientFlavor(flavor).apiRoot(baseUrl, teamId);
}

const EMPTY_LINKS = { first: null, last: null, prev: null, next: null };

function parseValue(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ServiceError('bad-response', 'The server answered with something that is not JSON.');
  }
}

function parseJson<S extends z.ZodType>(bytes: Buffer, schema: S): z.output<S> {
  return validate(parseValue(bytes), schema);
}

function validate<S extends z.ZodType>(value: unknown, schema: S, at: (string | number)[] = []): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const where = issue ? `${[...at, ...issue.path].join('.') || 'answer'}: ${issue.message}` : 'unknown';
    throw new ServiceError('bad-response', `The server's answer is not in the expected shape (${where}).`);
  }
  return result.data;
}

/** A body's text in the charset the server named; a head cut inside a character drops that character. Raw is read by rawBody. */
function decodeBody(response: RawResponse, format: BodyFormat): string {
  const contentType = response.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (contentType.includes('json')) {
    throw new ServiceError('bad-response', `Asked for ${BODY_FORMATS[format]}, the server answered JSON.`);
  }
  const charset = /charset="?([\w-]+)/i.exec(response.contentType)?.[1] ?? 'utf-8';
  let content: string;
  try {
    content = new TextDecoder(charset).decode(response.bytes, { stream: response.wholeBytes !== undefined });
  } catch {
    content = response.bytes.toString('utf8');
  }
  return content;
}

/**
 * The HTTP client for one account. Only main holds it: the token never leaves.
 * Caches emails and bodies (going back to an email costs nothing), keeps list
 * pages briefly, tracks the rate budget, and remembers unsupported operations.
 */
export class ServiceClient {
  private readonly root: URL;
  private readonly token: string | null;
  readonly flavor: ClientFlavor;
  private readonly http: HttpOptions;
  private readonly views = new Map<string, AbortController>();
  private readonly inFlight = new Set<AbortController>();
  private readonly unsupported = new Set<Operation>();
  private readonly rateListeners = new Set<(state: RateLimitState) => void>();
  private rate: RateLimitState = { limit: null, remaining: null, blockedUntil: null };

  readonly emails = new LruCache<string, Email>({ maxEntries: LIMITS.cachedEmails });
  readonly bodies = new LruCache<string, EmailBody>({
    maxEntries: LIMITS.cachedBodies,
    maxWeight: LIMITS.cachedBodyBytes,
    weigh: (body) => body.content.length * 2,
  });
  /** The clipped heads of long bodies not read whole (readerBody). */
  private readonly heads = new LruCache<string, EmailBody>({ maxEntries: 16 });
  /** Recent list pages, with the bytes each was read from. */
  private readonly pages = new LruCache<string, { page: EmailPage; at: number; bytes: Buffer }>({ maxEntries: LIMITS.cachedPages });
  private automations: Automation[] | null = null;
  /**
   * Each email's record exactly as the server sent it (what its webhooks carry:
   * payload previews), with what validating it gave.
   */
  private readonly records = new LruCache<string, { raw: unknown; email: Email }>({ maxEntries: LIMITS.cachedEmails });

  /**
   * Validates an email record, or reuses the last result when the server sent
   * the very same record again: a poll of page 1 is mostly records already seen.
   */
  private readRecord(raw: unknown, at: (string | number)[]): Email {
    const id = (raw as { id?: unknown } | null)?.id;
    const known = typeof id === 'string' ? this.records.get(id) : undefined;
    if (known && isDeepStrictEqual(known.raw, raw)) return known.email;
    const email = validate(raw, EmailSchema, at);
    this.records.set(email.id, { raw, email });
    return email;
  }

  /** The email as last seen in a list or read, without asking the server (a JSON read would mark it read). */
  knownEmail(id: string): Email | null {
    return this.emails.get(id) ?? null;
  }

  /** The record as the server serialized it, if seen (null otherwise). */
  serverRecord(id: string): unknown {
    return this.records.get(id)?.raw ?? null;
  }

  constructor(connection: Connection, http: Partial<HttpOptions> = {}) {
    this.flavor = clientFlavor(connection.flavor);
    this.root = this.flavor.apiRoot(connection.baseUrl, connection.teamId);
    this.token = connection.token;
    this.http = { ...DEFAULT_HTTP, ...http };
    this.budget = new RateBudget({
      now: Date.now,
      sleep: this.http.sleep,
      windowMs: this.http.rateWindowMs,
      reserve: LIMITS.prefetchReserve,
      // Reading waits for the window rather than earn a 429: the app shows the wait as it shows a Retry-After.
      onWait: (until) => {
        this.rate = { ...this.rate, remaining: 0, blockedUntil: until };
        for (const listener of this.rateListeners) listener(this.rateLimit);
      },
    });
  }

  private readonly budget: RateBudget;

  // ---- rate budget -------------------------------------------------------

  get rateLimit(): RateLimitState {
    return { ...this.rate };
  }

  onRateLimit(listener: (state: RateLimitState) => void): () => void {
    this.rateListeners.add(listener);
    return () => this.rateListeners.delete(listener);
  }

  private noteRate(reading: RateLimitReading): void {
    this.budget.note(reading);
    const blockedUntil =
      reading.retryAfterSeconds !== undefined ? Date.now() + reading.retryAfterSeconds * 1000 : this.rate.blockedUntil;
    const next: RateLimitState = {
      limit: reading.limit ?? this.rate.limit,
      remaining: reading.remaining ?? this.rate.remaining,
      blockedUntil: blockedUntil !== null && blockedUntil > Date.now() ? blockedUntil : null,
    };
    if (next.limit === this.rate.limit && next.remaining === this.rate.remaining && next.blockedUntil === this.rate.blockedUntil) return;
    this.rate = next;
    for (const listener of this.rateListeners) listener(this.rateLimit);
  }

  // ---- transport ---------------------------------------------------------

  isUnsupported(operation: Operation): boolean {
    return this.unsupported.has(operation);
  }

  /** Cancels everything in flight (switching accounts, closing). */
  abortAll(): void {
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
    this.views.clear();
  }

  private async request(spec: RequestSpec) {
    if (this.unsupported.has(spec.operation)) {
      throw new ServiceError('unsupported', 'This server does not offer that operation.');
    }
    const controller = new AbortController();
    if (spec.view) {
      this.views.get(spec.view)?.abort();
      this.views.set(spec.view, controller);
    }
    this.inFlight.add(controller);
    let release: (() => void) | null = null;
    const url = new URL(spec.path, this.root);
    const headers: Record<string, string> = { Accept: spec.accept ?? this.flavor.record.mediaType };
    const authorization = this.flavor.authorization(this.token);
    if (authorization !== null) headers.Authorization = authorization;
    if (spec.body !== undefined) headers['Content-Type'] = this.flavor.record.mediaType;
    try {
      release = await this.budget.acquire(spec.priority ?? 'read', controller.signal).catch((error: unknown) => {
        throw errorFromException(error, url.host);
      });
      return await exchange(
        url,
        {
          method: spec.method,
          headers,
          body: spec.body === undefined ? undefined : JSON.stringify(spec.body),
          signal: controller.signal,
          maxBytes: spec.maxBytes ?? LIMITS.jsonBytes,
          ...(spec.headBytes === undefined ? {} : { headBytes: spec.headBytes }),
        },
        this.http,
        (reading) => this.noteRate(reading),
      );
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      if (OPTIONAL.has(spec.operation) && this.looksUnsupported(error, spec)) {
        this.unsupported.add(spec.operation);
        throw new ServiceError('unsupported', 'This server does not offer that operation.', { status: error.status });
      }
      throw this.flavor.explain(error, spec.operation);
    } finally {
      release?.();
      this.inFlight.delete(controller);
      if (spec.view && this.views.get(spec.view) === controller) this.views.delete(spec.view);
    }
  }

  /**
   * 405/501 always mean "no such operation". A 404 does only on a route that
   * names no resource (the automations collection), and only when it is not
   * the "No query results" a missing record gets. A 404 for one email or one
   * attachment is that record missing, never the operation: remembering it
   * would refuse every later download without asking.
   */
  private looksUnsupported(error: ServiceError, spec: RequestSpec): boolean {
    if (error.kind === 'unsupported') return true;
    if (error.status !== 404) return false;
    if (spec.operation !== 'listAutomations' && spec.operation !== 'createAutomation') return false;
    return !/no query results|model/i.test(error.serverMessage ?? '');
  }

  // ---- emails ------------------------------------------------------------

  async listEmails(query: ListQuery, options: { view?: string; fresh?: boolean } = {}): Promise<EmailListing> {
    const params = listQueryToSearchParams(query);
    const key = params.toString();
    const cached = this.pages.get(key);
    if (!options.fresh && cached && Date.now() - cached.at < LIMITS.pageFreshMs) return cached.page;
    let response;
    try {
      response = await this.request({ operation: 'listEmails', method: 'GET', path: key ? `emails?${key}` : 'emails', view: options.view });
    } catch (error) {
      // The service answers 404 for an inbox or sender it has never seen: no mail for it yet.
      const field = query.inbox ? 'inbox' : query.sender ? 'sender' : null;
      if (error instanceof ServiceError && error.status === 404 && field !== null) {
        const perPage = query.limit ?? 25;
        return {
          data: [],
          links: EMPTY_LINKS,
          meta: { current_page: 1, from: null, last_page: 1, path: '', per_page: perPage, to: null, total: 0 },
          unknownAddress: { field, value: query[field]! },
        };
      }
      throw error;
    }
    // A poll mostly gets the very bytes it got last time: then the page it made of them stands.
    if (cached && cached.bytes.equals(response.bytes)) {
      this.pages.set(key, { ...cached, at: Date.now() });
      for (const email of cached.page.data) this.emails.set(email.id, email);
      return cached.page;
    }
    const value = parseValue(response.bytes);
    // The page's frame is checked as a whole; its records one by one, so that known ones are not checked again.
    const records = (value as { data?: unknown } | null)?.data;
    const frame = validate(Array.isArray(records) ? { ...(value as object), data: [] } : value, EmailPageSchema);
    const page = { ...frame, data: (records as unknown[]).map((record, index) => this.readRecord(record, ['data', index])) };
    this.pages.set(key, { page, at: Date.now(), bytes: response.bytes });
    // A list entry is the server's newest word on an email: it refreshes the record cache.
    for (const email of page.data) this.emails.set(email.id, email);
    return page;
  }

  /** The JSON record; the first read marks the email read on the server. */
  /**
   * The email's record, read as JSON (which marks it read on the server). Of
   * an email the list already showed, the read only marks it: background work,
   * sent when the rate budget allows (rate-budget.ts), never a 429.
   */
  async getEmail(id: string, options: { view?: string } = {}): Promise<Email> {
    const cached = this.emails.get(id);
    if (cached && cached.read !== null) return cached;
    const response = await this.request({
      operation: 'getEmail',
      method: 'GET',
      path: `emails/${encodeURIComponent(id)}`,
      view: options.view,
      priority: cached ? 'background' : 'read',
    });
    const value = parseValue(response.bytes);
    validate(value, z.object({ data: z.unknown() }));
    const email = this.readRecord((value as { data: unknown }).data, ['data']);
    this.emails.set(id, email);
    // Only an unread (or unknown) email gets here: this read marked it, so cached pages are stale.
    this.pages.clear();
    return email;
  }

  /** An email's body in one format, as the server sends it (Accept chooses the format). */
  private bodyRequest(id: string, format: BodyFormat, options: Pick<RequestSpec, 'view' | 'headBytes'>) {
    return this.request({
      operation: 'getEmailBody',
      method: 'GET',
      path: `emails/${encodeURIComponent(id)}`,
      accept: BODY_FORMATS[format],
      maxBytes: LIMITS.bodyBytes,
      ...options,
    });
  }

  async getEmailBody(id: string, format: BodyFormat, options: { view?: string } = {}): Promise<EmailBody> {
    const key = `${id}:${format}`;
    const cached = this.bodies.get(key);
    if (cached) return cached;
    if (format === 'raw') {
      const bytes = await this.rawMessage(id, options);
      return this.bodies.get(key) ?? { format, contentType: 'message/rfc2822', content: displayRaw(bytes) };
    }
    const response = await this.bodyRequest(id, format, { view: options.view });
    const body: EmailBody = { format, contentType: response.contentType, content: decodeBody(response, format) };
    this.bodies.set(key, body);
    return body;
  }

  /** Raw messages as bytes, exactly as stored: what a webhook posts and a signature covers. */
  private readonly raws = new LruCache<string, Buffer>({ maxEntries: 32, maxWeight: LIMITS.cachedBodyBytes / 2, weigh: (bytes) => bytes.length });

  /**
   * The raw message's bytes, as the server stores them (the flavor undoes
   * what its server does to them on the way, and nothing else touches them).
   * The reader's raw view is these bytes made readable (displayRaw).
   */
  async rawMessage(id: string, options: { view?: string } = {}): Promise<Buffer> {
    const known = this.raws.get(id);
    if (known) return known;
    const response = await this.bodyRequest(id, 'raw', { view: options.view });
    const contentType = response.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
    if (contentType.includes('json')) throw new ServiceError('bad-response', 'Asked for the raw message, the server answered JSON.');
    const bytes = this.flavor.rawBytes(response.bytes);
    this.raws.set(id, bytes);
    this.bodies.set(`${id}:raw`, { format: 'raw', contentType: response.contentType, content: displayRaw(bytes) });
    return bytes;
  }

  /**
   * The raw message's header section, as text: from the raw message when it is
   * here already; else, when `fetch`, the head of it (what the header takes,
   * never the body), read once.
   */
  async headerSection(id: string, options: { fetch: boolean }): Promise<string | null> {
    const known = this.raws.get(id) ?? null;
    const cached = this.headerSections.get(id);
    if (cached !== undefined) return cached;
    let head: Buffer | null = known;
    if (head === null) {
      if (!options.fetch) return null;
      const response = await this.bodyRequest(id, 'raw', { headBytes: HEADER_SECTION_BYTES });
      head = this.flavor.rawBytes(response.bytes);
    }
    const text = head.subarray(0, HEADER_SECTION_BYTES).toString('utf8');
    const end = text.search(/\r?\n\r?\n/);
    const section = end === -1 ? text : text.slice(0, end);
    this.headerSections.set(id, section);
    return section;
  }

  private readonly headerSections = new LruCache<string, string>({ maxEntries: 200 });

  /**
   * The body as the reader shows it first: clipped past CLIP_CHARS (clip.ts).
   * Of a long HTML or text body whose length the server declares, only the
   * head the clip needs is downloaded: the first screen of a 10 MB email costs
   * what 400 KB costs. "Show the whole message" asks getEmailBody for the rest.
   */
  async readerBody(id: string, format: BodyFormat): Promise<EmailBody> {
    const key = `${id}:${format}`;
    const whole = this.bodies.get(key);
    if (whole) return clipBody(whole);
    const head = this.heads.get(key);
    if (head) return head;
    // Raw is read whole, as bytes (rawMessage).
    if (format === 'raw') return clipBody(await this.getEmailBody(id, format));
    // Enough bytes for CLIP_CHARS characters in any encoding (UTF-8 takes at most 4 a character).
    const response = await this.bodyRequest(id, format, { headBytes: CLIP_CHARS * 4 });
    const content = decodeBody(response, format);
    if (response.wholeBytes === undefined) {
      const body: EmailBody = { format, contentType: response.contentType, content };
      this.bodies.set(key, body);
      return clipBody(body);
    }
    const clipped = clipBody({ format, contentType: response.contentType, content });
    // Only the head was read: the whole's length is the bytes the server declared.
    const body: EmailBody = { ...clipped, total: Math.max(response.wholeBytes, clipped.total ?? 0) };
    this.heads.set(key, body);
    return body;
  }

  async deleteEmail(id: string): Promise<void> {
    await this.request({ operation: 'deleteEmail', method: 'DELETE', path: `emails/${encodeURIComponent(id)}` });
    this.emails.delete(id);
    this.raws.delete(id);
    this.bodies.deleteWhere((key) => key.startsWith(`${id}:`));
    this.heads.deleteWhere((key) => key.startsWith(`${id}:`));
    this.pages.clear();
  }

  /** Every email of the account that arrived by `through` (the server's own timestamp), where the server offers it (the catcher; not MailCare). */
  async deleteAllEmails(through: string): Promise<void> {
    await this.request({ operation: 'deleteAllEmails', method: 'DELETE', path: `emails?through=${encodeURIComponent(through)}` });
    this.emails.clear();
    this.records.clear();
    this.raws.clear();
    this.bodies.clear();
    this.heads.clear();
    this.pages.clear();
  }

  async setFavorite(id: string, favorite: boolean): Promise<void> {
    await this.request({
      operation: 'setFavorite',
      method: favorite ? 'POST' : 'DELETE',
      path: `emails/${encodeURIComponent(id)}/favorites`,
    });
    const cached = this.emails.get(id);
    if (cached) this.emails.set(id, { ...cached, favorite });
    this.pages.clear();
  }

  async getAttachment(emailId: string, attachmentId: string): Promise<{ bytes: Buffer; contentType: string }> {
    const response = await this.request({
      operation: 'getAttachment',
      method: 'GET',
      path: `emails/${encodeURIComponent(emailId)}/attachments/${encodeURIComponent(attachmentId)}`,
      // The bytes are sent whatever we ask; asking JSON first makes errors come back as JSON, not an HTML page.
      accept: `${this.flavor.record.mediaType}, application/octet-stream;q=0.9, */*;q=0.8`,
      maxBytes: LIMITS.attachmentBytes,
    });
    return { bytes: response.bytes, contentType: response.contentType };
  }

  // ---- automations -------------------------------------------------------

  async listAutomations(): Promise<Automation[]> {
    const response = await this.request({ operation: 'listAutomations', method: 'GET', path: 'automations' });
    this.automations = parseJson(response.bytes, z.object({ data: z.array(AutomationSchema) })).data;
    return this.automations;
  }

  /** The answer's automation, when the server sent one (MailCare answers writes with an empty 200). */
  private echoedAutomation(bytes: Buffer): Automation | null {
    if (bytes.toString('utf8').trim() === '') return null;
    try {
      return parseJson(bytes, z.object({ data: AutomationSchema })).data;
    } catch {
      return null;
    }
  }

  /** POST is never retried: a 2xx, empty or not, means it is stored. */
  async createAutomation(input: Required<AutomationInput>): Promise<Automation> {
    const known = new Set((this.automations ?? []).map((a) => a.id));
    const response = await this.request({
      operation: 'createAutomation',
      method: 'POST',
      path: 'automations',
      body: this.flavor.automationToWire(input),
    });
    this.automations = null;
    const echoed = this.echoedAutomation(response.bytes);
    if (echoed) return echoed;
    // Stored, but not echoed: find it in a fresh list (the newest one not seen before with this title).
    const fresh = await this.listAutomations();
    const created = [...fresh].reverse().find((a) => !known.has(a.id) && a.title === input.title);
    if (created) return created;
    throw new ServiceError('bad-response', 'The server stored the automation but did not say how; refresh the list to see it.');
  }

  /**
   * PUT is never retried, and sends the whole automation as the user sees it
   * (MailCare replaces every column). The success body is open: an answer
   * with the automation is used; an empty one is re-read, or merged locally.
   */
  async updateAutomation(id: string, input: Required<AutomationInput>): Promise<Automation> {
    const response = await this.request({
      operation: 'updateAutomation',
      method: 'PUT',
      path: `automations/${encodeURIComponent(id)}`,
      body: this.flavor.automationToWire(input),
    });
    const known = this.automations?.find((a) => a.id === id);
    const echoed = this.echoedAutomation(response.bytes);
    if (echoed) return echoed;
    if (!this.unsupported.has('listAutomations')) {
      try {
        const fresh = (await this.listAutomations()).find((a) => a.id === id);
        if (fresh) return fresh;
      } catch {
        // Merge locally below.
      }
    }
    const now = new Date().toISOString();
    return AutomationSchema.parse({ ...(known ?? { emails_received: 0, in_error: false, created_at: now }), ...input, id, updated_at: now });
  }

  async deleteAutomation(id: string): Promise<void> {
    await this.request({ operation: 'deleteAutomation', method: 'DELETE', path: `automations/${encodeURIComponent(id)}` });
    this.automations = this.automations?.filter((a) => a.id !== id) ?? null;
  }
}
