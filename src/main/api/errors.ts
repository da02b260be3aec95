import { ERROR_KINDS, type BridgeError, type ErrorKind } from '../../shared/contract.ts';
import type { FieldErrors } from '../../shared/domain/automation.ts';

/** A failure talking to the service, already sorted into the contract's kinds. */
export class ServiceError extends Error {
  readonly kind: ErrorKind;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly fields: FieldErrors | undefined;
  /** What the server's error body said; kept in main, used to tell a missing route from a missing resource. */
  serverMessage: string | undefined;

  constructor(
    kind: ErrorKind,
    message: string,
    details: { status?: number; retryAfterSeconds?: number; fields?: FieldErrors } = {},
  ) {
    super(message);
    this.name = 'ServiceError';
    this.kind = kind;
    this.status = details.status;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.fields = details.fields;
  }

  toBridge(): BridgeError {
    const details: BridgeError['details'] = {};
    if (this.status !== undefined) details.status = this.status;
    if (this.retryAfterSeconds !== undefined) details.retryAfterSeconds = this.retryAfterSeconds;
    if (this.fields !== undefined) details.fields = this.fields;
    return { kind: this.kind, message: this.message, details };
  }
}

/** Retry-After is seconds or an HTTP date; answers whole seconds, at least 1. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(1, Math.ceil(seconds));
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(1, Math.ceil((date - now) / 1000));
}

/** Reads a message out of the error bodies the service family sends. */
function serverMessage(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const record = body as Record<string, unknown>;
  if (typeof record.message === 'string') return record.message;
  if (typeof record.error === 'string') return record.error;
  const nested = record.error;
  if (typeof nested === 'object' && nested !== null && typeof (nested as Record<string, unknown>).message === 'string') {
    return (nested as Record<string, string>).message;
  }
  return undefined;
}

function fieldErrors(body: unknown): FieldErrors | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const errors = (body as Record<string, unknown>).errors;
  if (typeof errors !== 'object' || errors === null) return undefined;
  const result: FieldErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    const list = Array.isArray(messages) ? messages : [messages];
    result[field] = list.filter((m): m is string => typeof m === 'string').slice(0, 10);
  }
  return result;
}

const clip = (text: string) => (text.length > 300 ? `${text.slice(0, 297)}...` : text);

/** Maps an HTTP failure status to the contract's error. */
export function errorFromResponse(status: number, body: unknown, retryAfter: string | null): ServiceError {
  const error = errorForStatus(status, body, retryAfter);
  error.serverMessage = serverMessage(body);
  return error;
}

function errorForStatus(status: number, body: unknown, retryAfter: string | null): ServiceError {
  const said = serverMessage(body);
  const suffix = said ? ` The server said: ${clip(said)}` : '';
  switch (true) {
    case status === 401:
      return new ServiceError('auth', 'The server did not accept the access token. Check it in Settings.', { status });
    case status === 403:
      return new ServiceError('forbidden', `This token may not see that team or resource.${suffix}`, { status });
    case status === 404:
      return new ServiceError('not-found', `Not found: it may have been deleted.${suffix}`, { status });
    case status === 406:
      return new ServiceError('not-acceptable', `The server cannot give this email in that format.${suffix}`, { status });
    case status === 413:
      return new ServiceError('bad-request', 'The server refused the request as too large.', { status });
    case status === 415:
      return new ServiceError('bad-request', 'The server refused the request body type (415).', { status });
    case status === 422:
      return new ServiceError('validation', said ? clip(said) : 'The server rejected some fields.', {
        status,
        fields: fieldErrors(body) ?? {},
      });
    case status === 429: {
      const seconds = parseRetryAfter(retryAfter);
      const wait = seconds === undefined ? 'a moment' : `${seconds} s`;
      return new ServiceError('rate-limited', `Too many requests: the server asks to wait ${wait}.`, {
        status,
        ...(seconds === undefined ? {} : { retryAfterSeconds: seconds }),
      });
    }
    case status === 405 || status === 501:
      return new ServiceError('unsupported', 'This server does not offer that operation.', { status });
    case status === 502 || status === 503 || status === 504:
      return new ServiceError('server', `The server is unavailable right now (${status}). Try again shortly.${suffix}`, { status });
    case status >= 500:
      // A crash on the server's side: the same request will likely fail the same way.
      return new ServiceError(
        'server',
        `The server hit an error (${status}). Trying again may not help; if it keeps happening, tell whoever runs the server.${suffix}`,
        { status },
      );
    default:
      return new ServiceError('bad-request', `The server refused the request (${status}).${suffix}`, { status });
  }
}

const TLS_CODES = new Set([
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_NOT_YET_VALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

function causeCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Maps a thrown network-level failure (no HTTP answer) to the contract's error. */
export function errorFromException(error: unknown, host: string): ServiceError {
  if (error instanceof ServiceError) return error;
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TimeoutError') {
    return new ServiceError('timeout', `${host} did not answer in time. Check the connection and try again.`);
  }
  if (name === 'AbortError') {
    return new ServiceError('cancelled', 'The request was cancelled by a newer one.');
  }
  const code = causeCode(error);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new ServiceError('network', `Cannot find the server ${host}. Check the address.`);
  }
  if (code === 'ECONNREFUSED') {
    return new ServiceError('network', `${host} refused the connection. Is the server running?`);
  }
  if (code && TLS_CODES.has(code)) {
    return new ServiceError('network', `The secure connection to ${host} failed (${code}).`);
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE' || code === 'UND_ERR_CLOSED') {
    return new ServiceError('network', `${host} dropped the connection. Try again.`);
  }
  return new ServiceError('network', `Could not reach ${host}${code ? ` (${code})` : ''}.`);
}

export function redact(text: string, secrets: string[]): string {
  let result = text;
  for (const secret of secrets) if (secret.length >= 4) result = result.split(secret).join('[redacted]');
  return result;
}

/** Any thrown value as the contract's one error shape, with secrets taken out. */
export function toBridgeError(error: unknown, secrets: string[] = []): BridgeError {
  const bridge: BridgeError =
    error instanceof ServiceError
      ? error.toBridge()
      : { kind: 'server', message: 'Inbox Desk hit an unexpected error. Try again.', details: {} };
  if (!ERROR_KINDS.includes(bridge.kind)) bridge.kind = 'server';
  bridge.message = redact(bridge.message, secrets);
  if (bridge.details.fields) {
    bridge.details.fields = Object.fromEntries(
      Object.entries(bridge.details.fields).map(([field, messages]) => [field, messages.map((m) => redact(m, secrets))]),
    );
  }
  return bridge;
}

