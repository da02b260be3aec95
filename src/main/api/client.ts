import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import type { RateLimitState } from '../../shared/contract.ts';
import type { Automation, AutomationInput } from '../../shared/domain/automation.ts';
import { CLIP_CHARS, clipBody } from '../../shared/domain/clip.ts';
import { BODY_FORMATS, EmailPageSchema, EmailSchema, readWellFormedEmail, type BodyFormat, type Email, type EmailBody, type EmailPage } from '../../shared/domain/email.ts';
import { listQueryToSearchParams, type ListQuery } from '../../shared/domain/list-query.ts';
import { displayRaw } from '../../shared/domain/raw-message.ts';
import type { FlavorName } from '../../shared/flavors/index.ts';
import { LruCache } from '../../shared/lru.ts';
import { decodeBody, parseValue, validate } from './answers.ts';
import { AutomationsClient } from './automations.ts';
import { ServiceError } from './errors.ts';
import { clientFlavor, type ClientFlavor, type Operation } from './flavors/index.ts';
import type { HttpOptions } from './http.ts';
import { Transport, type Connection, type RequestSpec } from './transport.ts';

export type { Connection } from './transport.ts';

/** A list page; when a filter names an address the server has never seen, an empty page that says so. */
export type EmailListing = EmailPage & { unknownAddress?: { field: 'inbox' | 'sender'; value: string } };

/** Caps, stated once. */
export const LIMITS = {
  bodyBytes: 30_000_000,
  attachmentBytes: 100_000_000,
  cachedEmails: 1000,
  cachedBodies: 200,
  cachedBodyBytes: 40_000_000,
  cachedPages: 50,
  /** A list page younger than this is answered from memory. */
  pageFreshMs: 5_000,
} as const;

/** A header section longer than this is read no further (a message's headers are some kilobytes). */
const HEADER_SECTION_BYTES = 64 * 1024;

/** A normalised URL for the API root; refuses what is not http(s). */
export function apiRoot(baseUrl: string, teamId: string, flavor?: FlavorName): URL {
  return clientFlavor(flavor).apiRoot(baseUrl, teamId);
}

const EMPTY_LINKS = { first: null, last: null, prev: null, next: null };

/**
 * The client for one account, in main only (the token never leaves). The
 * transport (transport.ts) carries requests; this class knows what to ask and
 * keeps what came back: emails and bodies (going back to an email costs
 * nothing), list pages briefly, raw bytes and header sections. Automations are
 * their own client (automations.ts).
 */
export class ServiceClient {
  private readonly transport: Transport;
  private readonly rules: AutomationsClient;

  /** The catcher's own service: one entry per delivery, its reads and writes reaching every row of the message. */
  private readonly byDelivery: boolean;

  constructor(connection: Connection, http: Partial<HttpOptions> = {}) {
    this.transport = new Transport(connection, http);
    this.byDelivery = connection.byDelivery === true;
    this.rules = new AutomationsClient(this.transport);
  }

  get flavor(): ClientFlavor {
    return this.transport.flavor;
  }

  get rateLimit(): RateLimitState {
    return this.transport.rateLimit;
  }

  onRateLimit(listener: (state: RateLimitState) => void): () => void {
    return this.transport.onRateLimit(listener);
  }

  isUnsupported(operation: Operation): boolean {
    return this.transport.isUnsupported(operation);
  }

  /** Cancels everything in flight (switching accounts, closing). */
  abortAll(): void {
    this.transport.abortAll();
  }

  // ---- what came back ----------------------------------------------------

  readonly emails = new LruCache<string, Email>({ maxEntries: LIMITS.cachedEmails });
  readonly bodies = new LruCache<string, EmailBody>({
    maxEntries: LIMITS.cachedBodies,
    maxWeight: LIMITS.cachedBodyBytes,
    weigh: (body) => body.content.length * 2,
  });
  /** The clipped heads of long bodies not read whole (readerBody). */
  private readonly heads = new LruCache<string, EmailBody>({ maxEntries: 16 });
  /**
   * Writes begun and ended (stars, deletes, read marks): a list page asked for
   * while one was on its way may predate it, so it is shown but never cached.
   */
  private generation = 0;

  /** Runs a write: the generation moves as it starts and as it ends, and cached pages go once it is done. */
  private async write<T>(run: () => Promise<T>): Promise<T> {
    this.generation += 1;
    try {
      return await run();
    } finally {
      this.generation += 1;
      this.pages.clear();
    }
  }

  /** `?whole=delivery` on a read or write of the catcher's: it reaches every row of the message. */
  private get whole(): string {
    return this.byDelivery ? '?whole=delivery' : '';
  }

  /** Recent list pages, with the bytes each was read from. */
  private readonly pages = new LruCache<string, { page: EmailPage; at: number; bytes: Buffer }>({ maxEntries: LIMITS.cachedPages });
  /** Raw messages as bytes, exactly as stored: what a webhook posts and a signature covers. */
  private readonly raws = new LruCache<string, Buffer>({ maxEntries: 32, maxWeight: LIMITS.cachedBodyBytes / 2, weigh: (bytes) => bytes.length });
  private readonly headerSections = new LruCache<string, string>({ maxEntries: 200 });
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
    const email = readWellFormedEmail(raw) ?? validate(raw, EmailSchema, at);
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

  // ---- emails ------------------------------------------------------------

  async listEmails(query: ListQuery, options: { view?: string; fresh?: boolean } = {}): Promise<EmailListing> {
    const params = listQueryToSearchParams(query);
    if (this.byDelivery) params.set('group', 'delivery');
    const key = params.toString();
    const cached = this.pages.get(key);
    if (!options.fresh && cached && Date.now() - cached.at < LIMITS.pageFreshMs) return cached.page;
    const asked = this.generation;
    let response;
    try {
      response = await this.transport.request({ operation: 'listEmails', method: 'GET', path: key ? `emails?${key}` : 'emails', view: options.view });
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
    if (cached && cached.bytes.equals(response.bytes) && asked === this.generation) {
      this.pages.set(key, { ...cached, at: Date.now() });
      for (const email of cached.page.data) this.emails.set(email.id, email);
      return cached.page;
    }
    const value = parseValue(response.bytes);
    // The page's frame is checked as a whole; its records one by one, so that known ones are not checked again.
    const records = (value as { data?: unknown } | null)?.data;
    const frame = validate(Array.isArray(records) ? { ...(value as object), data: [] } : value, EmailPageSchema);
    const page = { ...frame, data: (records as unknown[]).map((record, index) => this.readRecord(record, ['data', index])) };
    // A write went (or ended) while this page was on its way: the page may predate it, so nothing is kept of it.
    if (asked !== this.generation) return page;
    this.pages.set(key, { page, at: Date.now(), bytes: response.bytes });
    // A list entry is the server's newest word on an email: it refreshes the record cache.
    for (const email of page.data) this.emails.set(email.id, email);
    return page;
  }

  /**
   * The email's record, read as JSON (which marks it read on the server). Of
   * an email the list already showed, the read only marks it: background work,
   * sent when the rate budget allows (rate-budget.ts), never a 429.
   */
  async getEmail(id: string, options: { view?: string } = {}): Promise<Email> {
    const cached = this.emails.get(id);
    if (cached && cached.read !== null) return cached;
    // The JSON read marks it read on the server: a write.
    const response = await this.write(() => this.transport.request({
      operation: 'getEmail',
      method: 'GET',
      path: `emails/${encodeURIComponent(id)}${this.whole}`,
      view: options.view,
      priority: cached ? 'background' : 'read',
    }));
    const value = parseValue(response.bytes);
    validate(value, z.object({ data: z.unknown() }));
    const email = this.readRecord((value as { data: unknown }).data, ['data']);
    this.emails.set(id, email);
    return email;
  }

  /** An email's body in one format, as the server sends it (Accept chooses the format). */
  private bodyRequest(id: string, format: BodyFormat, options: Pick<RequestSpec, 'view' | 'headBytes'>) {
    return this.transport.request({
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
    const bytes = this.transport.flavor.rawBytes(response.bytes);
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
      head = this.transport.flavor.rawBytes(response.bytes);
    }
    const text = head.subarray(0, HEADER_SECTION_BYTES).toString('utf8');
    const end = text.search(/\r?\n\r?\n/);
    const section = end === -1 ? text : text.slice(0, end);
    this.headerSections.set(id, section);
    return section;
  }

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
    await this.write(() => this.transport.request({ operation: 'deleteEmail', method: 'DELETE', path: `emails/${encodeURIComponent(id)}${this.whole}` }));
    this.emails.delete(id);
    this.raws.delete(id);
    this.bodies.deleteWhere((key) => key.startsWith(`${id}:`));
    this.heads.deleteWhere((key) => key.startsWith(`${id}:`));
  }

  /** Every email of the account that arrived by `through` (the server's own timestamp), where the server offers it (the catcher; not MailCare). */
  async deleteAllEmails(through: string): Promise<void> {
    await this.write(() => this.transport.request({ operation: 'deleteAllEmails', method: 'DELETE', path: `emails?through=${encodeURIComponent(through)}` }));
    this.emails.clear();
    this.records.clear();
    this.raws.clear();
    this.bodies.clear();
    this.heads.clear();
  }

  async setFavorite(id: string, favorite: boolean): Promise<void> {
    await this.write(() =>
      this.transport.request({
        operation: 'setFavorite',
        method: favorite ? 'POST' : 'DELETE',
        path: `emails/${encodeURIComponent(id)}/favorites${this.whole}`,
      }),
    );
    const cached = this.emails.get(id);
    if (cached) this.emails.set(id, { ...cached, favorite });
  }

  async getAttachment(emailId: string, attachmentId: string): Promise<{ bytes: Buffer; contentType: string }> {
    const response = await this.transport.request({
      operation: 'getAttachment',
      method: 'GET',
      path: `emails/${encodeURIComponent(emailId)}/attachments/${encodeURIComponent(attachmentId)}`,
      // The bytes are sent whatever we ask; asking JSON first makes errors come back as JSON, not an HTML page.
      accept: `${this.transport.flavor.record.mediaType}, application/octet-stream;q=0.9, */*;q=0.8`,
      maxBytes: LIMITS.attachmentBytes,
    });
    return { bytes: response.bytes, contentType: response.contentType };
  }

  // ---- automations -------------------------------------------------------

  listAutomations(): Promise<Automation[]> {
    return this.rules.list();
  }

  createAutomation(input: Required<AutomationInput>): Promise<Automation> {
    return this.rules.create(input);
  }

  updateAutomation(id: string, input: Required<AutomationInput>): Promise<Automation> {
    return this.rules.update(id, input);
  }

  deleteAutomation(id: string): Promise<void> {
    return this.rules.delete(id);
  }
}
