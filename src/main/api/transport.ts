import type { RateLimitState } from '../../shared/contract.ts';
import { ServiceError, errorFromException } from './errors.ts';
import { clientFlavor, type ClientFlavor, type Operation } from './flavors/index.ts';
import { abortableSleep, exchange, type HttpOptions, type RateLimitReading, type RawResponse } from './http.ts';
import { RateBudget, type Priority } from './rate-budget.ts';
import type { FlavorName } from '../../shared/flavors/index.ts';

export interface Connection {
  baseUrl: string;
  /** Empty for servers without teams (MailCare). */
  teamId: string;
  /** The bearer token, MailCare's "email:password", or null for a server without auth. */
  token: string | null;
  flavor?: FlavorName;
  /** The catcher's own service: one entry per delivery (a message to To, Cc and Bcc listed once), its reads, stars and deletes reaching all of it. */
  byDelivery?: boolean;
}

export const DEFAULT_HTTP: HttpOptions = {
  timeoutMs: 15_000,
  maxRetries: 2,
  maxRetryWaitMs: 10_000,
  backoffBaseMs: 400,
  sleep: abortableSleep,
  rateWindowMs: 60_000,
};

/** Of a JSON answer, read no more than this unless the request says otherwise. */
export const JSON_BYTES = 5_000_000;
/** Requests background work (marking read, prefetch) leaves in the rate window for reading. */
const PREFETCH_RESERVE = 10;

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

export interface RequestSpec {
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

/**
 * One account's way to the server: the token (main only), the flavor's wire
 * (root, auth, media type, how its errors read), the rate budget, cancelling
 * a view's older request, and the operations this server turned out to lack.
 * What is asked and what the answers mean is the client's (client.ts).
 */
export class Transport {
  readonly flavor: ClientFlavor;
  private readonly root: URL;
  private readonly token: string | null;
  private readonly http: HttpOptions;
  private readonly budget: RateBudget;
  private readonly views = new Map<string, AbortController>();
  private readonly inFlight = new Set<AbortController>();
  private readonly unsupported = new Set<Operation>();
  private readonly rateListeners = new Set<(state: RateLimitState) => void>();
  private rate: RateLimitState = { limit: null, remaining: null, blockedUntil: null };

  constructor(connection: Connection, http: Partial<HttpOptions> = {}) {
    this.flavor = clientFlavor(connection.flavor);
    this.root = this.flavor.apiRoot(connection.baseUrl, connection.teamId);
    this.token = connection.token;
    this.http = { ...DEFAULT_HTTP, ...http };
    this.budget = new RateBudget({
      now: Date.now,
      sleep: this.http.sleep,
      windowMs: this.http.rateWindowMs,
      reserve: PREFETCH_RESERVE,
      // Reading waits for the window rather than earn a 429: the app shows the wait as it shows a Retry-After.
      onWait: (until) => {
        this.rate = { ...this.rate, remaining: 0, blockedUntil: until };
        this.tellRate();
      },
    });
  }

  get rateLimit(): RateLimitState {
    return { ...this.rate };
  }

  onRateLimit(listener: (state: RateLimitState) => void): () => void {
    this.rateListeners.add(listener);
    return () => this.rateListeners.delete(listener);
  }

  isUnsupported(operation: Operation): boolean {
    return this.unsupported.has(operation);
  }

  /** Cancels everything in flight (switching accounts, closing). */
  abortAll(): void {
    for (const controller of this.inFlight) controller.abort();
    this.inFlight.clear();
    this.views.clear();
  }

  async request(spec: RequestSpec): Promise<RawResponse> {
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
          maxBytes: spec.maxBytes ?? JSON_BYTES,
          ...(spec.headBytes === undefined ? {} : { headBytes: spec.headBytes }),
        },
        this.http,
        (reading) => this.noteRate(reading),
      );
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      if (OPTIONAL.has(spec.operation) && looksUnsupported(error, spec)) {
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
    this.tellRate();
  }

  private tellRate(): void {
    for (const listener of this.rateListeners) listener(this.rateLimit);
  }
}

/**
 * 405/501 always mean "no such operation". A 404 does only on a route that
 * names no resource (the automations collection), and only when it is not
 * the "No query results" a missing record gets. A 404 for one email or one
 * attachment is that record missing, never the operation: remembering it
 * would refuse every later download without asking.
 */
function looksUnsupported(error: ServiceError, spec: RequestSpec): boolean {
  if (error.kind === 'unsupported') return true;
  if (error.status !== 404) return false;
  if (spec.operation !== 'listAutomations' && spec.operation !== 'createAutomation') return false;
  return !/no query results|model/i.test(error.serverMessage ?? '');
}
