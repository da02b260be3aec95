import { errorFromException, errorFromResponse, parseRetryAfter, ServiceError } from './errors.ts';


export interface HttpOptions {
  /** Whole request, headers and body, in ms. */
  timeoutMs: number;
  /** Retries for GETs on 429/502/503/504. PUT, POST and DELETE are never retried. */
  maxRetries: number;
  /** A Retry-After longer than this is not waited out: the caller is told instead. */
  maxRetryWaitMs: number;
  /** First backoff step; doubles each time, with jitter. */
  backoffBaseMs: number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The server's rate window where it does not say (Laravel's throttle:60,1: one minute). */
  rateWindowMs: number;
}

export interface RateLimitReading {
  limit: number | null;
  remaining: number | null;
  retryAfterSeconds?: number;
}

export interface RawResponse {
  status: number;
  contentType: string;
  bytes: Buffer;
  /** Set when only the head of the body was read (`headBytes`): how many bytes the whole has. */
  wholeBytes?: number;
}

const RETRYABLE = new Set([429, 502, 503, 504]);

export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** The length a response declares for its bytes as they arrive (none when compressed: fetch inflates them). */
function declaredLength(response: Response): number | null {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const encoding = response.headers.get('content-encoding');
  return Number.isFinite(declared) && (!encoding || encoding === 'identity') ? declared : null;
}

/**
 * Reads a body, refusing more than `maxBytes` (checked as it streams, not
 * trusted from headers). With `headBytes`, a body whose length is declared
 * and longer is read only that far and the rest is never downloaded.
 */
async function readCapped(response: Response, maxBytes: number, headBytes?: number): Promise<{ bytes: Buffer; wholeBytes?: number }> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw tooLarge(maxBytes);
  }
  if (!response.body) return { bytes: Buffer.alloc(0) };
  const whole = declaredLength(response);
  // A declared, uncompressed length within the cap holds the body to it (fetch reads no byte past it): read in one piece.
  if (whole !== null && whole <= maxBytes && (headBytes === undefined || whole <= headBytes)) return { bytes: Buffer.from(await response.arrayBuffer()) };
  const stopAt = headBytes !== undefined && whole !== null && whole > headBytes ? headBytes : null;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw tooLarge(maxBytes);
    }
    chunks.push(chunk);
    if (stopAt !== null && total >= stopAt) {
      await response.body.cancel().catch(() => undefined);
      return { bytes: Buffer.concat(chunks), wholeBytes: whole! };
    }
  }
  return { bytes: Buffer.concat(chunks) };
}

function tooLarge(maxBytes: number): ServiceError {
  return new ServiceError('bad-response', `The server sent more than ${Math.round(maxBytes / 1_000_000)} MB; refused.`);
}

function readingOf(headers: Headers): RateLimitReading {
  const number = (name: string) => {
    const value = headers.get(name);
    const parsed = value === null ? Number.NaN : Number(value);
    return Number.isFinite(parsed) ? parsed : null;
  };
  return { limit: number('x-ratelimit-limit'), remaining: number('x-ratelimit-remaining') };
}

/**
 * One HTTP exchange with timeouts, cancellation, size caps and GET retries.
 * Answers the raw body of a 2xx; every other outcome throws a ServiceError.
 */
export async function exchange(
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal; maxBytes: number; headBytes?: number },
  options: HttpOptions,
  onRateLimit: (reading: RateLimitReading) => void,
): Promise<RawResponse> {
  const retryable = init.method === 'GET';
  for (let attempt = 0; ; attempt++) {
    const signals = [AbortSignal.timeout(options.timeoutMs), ...(init.signal ? [init.signal] : [])];
    let response: Response;
    try {
      response = await fetch(url, {
        method: init.method,
        headers: init.headers,
        body: init.body,
        signal: AbortSignal.any(signals),
        redirect: 'error',
      });
    } catch (error) {
      throw errorFromException(error, url.host);
    }
    const reading = readingOf(response.headers);
    if (response.status === 429) {
      const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
      if (retryAfter !== undefined) reading.retryAfterSeconds = retryAfter;
      reading.remaining = 0;
    }
    onRateLimit(reading);

    let read: { bytes: Buffer; wholeBytes?: number };
    try {
      read = await readCapped(response, init.maxBytes, response.ok ? init.headBytes : undefined);
    } catch (error) {
      throw errorFromException(error, url.host);
    }
    const { bytes } = read;
    if (response.ok) {
      const answer: RawResponse = { status: response.status, contentType: response.headers.get('content-type') ?? '', bytes };
      if (read.wholeBytes !== undefined) answer.wholeBytes = read.wholeBytes;
      return answer;
    }

    const retryAfterHeader = response.headers.get('retry-after');
    if (retryable && RETRYABLE.has(response.status) && attempt < options.maxRetries) {
      const asked = parseRetryAfter(retryAfterHeader);
      const backoff = options.backoffBaseMs * 2 ** attempt * (1 + Math.random() / 2);
      const wait = asked === undefined ? backoff : asked * 1000;
      if (wait <= options.maxRetryWaitMs) {
        try {
          await options.sleep(wait, init.signal);
        } catch (error) {
          throw errorFromException(error, url.host);
        }
        continue;
      }
    }
    let body: unknown;
    try {
      body = JSON.parse(bytes.toString('utf8'));
    } catch {
      body = null;
    }
    throw errorFromResponse(response.status, body, retryAfterHeader);
  }
}
