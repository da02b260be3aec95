/**
 * Where a webhook may go. An automation's URL is written by whoever may edit
 * rules, and the service posts whole emails and the secret token there: left
 * open, that reaches the service's own loopback, the LAN and cloud metadata.
 * Addresses are checked after DNS resolution, and the connection is pinned to
 * the checked address so a second lookup cannot swap it (DNS rebinding).
 */
import { lookup } from 'node:dns/promises';
import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { isPublicAddress } from '../shared/domain/ip-ranges.ts';

/** True for loopback, private, link-local, multicast and every other special-purpose address (ip-ranges.ts). */
export function isPrivateAddress(address: string): boolean {
  return !isPublicAddress(address);
}

export interface WebhookTarget {
  url: URL;
  /** The address to connect to: already checked. */
  address: string;
  family: 4 | 6;
  /** Whether any address the name resolved to is loopback, private or special-purpose. */
  private: boolean;
}

export class WebhookTargetError extends Error {}

/** Resolves a webhook URL and refuses private targets unless they are allowed. */
export async function resolveWebhookTarget(
  raw: string,
  options: { allowPrivate: boolean; resolve?: (host: string) => Promise<{ address: string; family: number }[]> },
): Promise<WebhookTarget> {
  if (!URL.canParse(raw)) throw new WebhookTargetError('not a URL');
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new WebhookTargetError('only http and https');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const resolve = options.resolve ?? ((name: string) => lookup(name, { all: true, verbatim: true }));
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolve(host);
  if (addresses.length === 0) throw new WebhookTargetError(`${host} does not resolve`);
  const usable = options.allowPrivate ? addresses : addresses.filter((a) => !isPrivateAddress(a.address));
  // Any private answer refuses the whole name: a mixed answer is how rebinding starts.
  if (usable.length < addresses.length || usable.length === 0) {
    throw new WebhookTargetError(`${host} is a private, loopback or link-local address`);
  }
  const chosen = usable[0]!;
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4, private: addresses.some((a) => isPrivateAddress(a.address)) };
}

/**
 * Header values as UTF-8 bytes on the wire (Node writes a header string as
 * Latin-1): a MailCare title like "Café" goes out as PHP sends it. Control
 * characters become spaces: a title cannot add a header.
 */
function wireHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must not reach a header
    Object.entries(headers).map(([name, value]) => [name, Buffer.from(value.replace(/[\x00-\x1f\x7f]/g, ' '), 'utf8').toString('latin1')]),
  );
}

/**
 * POSTs to a resolved target, connecting to exactly the address that was
 * checked (a second DNS answer cannot swap it), following no redirect.
 * Answers the status and the first `keep` characters of the answer; throws on
 * a network failure or when `timeoutMs` passes.
 */
/**
 * A request to a resolved target, connecting to exactly the address that was
 * checked (a second DNS answer cannot swap it), following no redirect.
 */
function requestTarget(
  target: WebhookTarget,
  init: { method: string; headers: Record<string, string>; timeoutMs: number },
  onResponse: (response: IncomingMessage) => void,
  onError: (error: Error) => void,
): ClientRequest {
  const pinned: RequestOptions['lookup'] = (_host, lookupOptions, callback) => {
    const answer = callback as (error: Error | null, address: string | { address: string; family: number }[], family?: number) => void;
    if (lookupOptions.all) answer(null, [{ address: target.address, family: target.family }]);
    else answer(null, target.address, target.family);
  };
  const send = target.url.protocol === 'https:' ? httpsRequest : httpRequest;
  const outgoing = send(target.url, { method: init.method, headers: init.headers, lookup: pinned, signal: AbortSignal.timeout(init.timeoutMs) }, onResponse);
  outgoing.on('error', onError);
  return outgoing;
}

/** Asks a resolved target for its headers only (HEAD, or a GET whose body is not read): the status and the Location, if any. */
export function probeTarget(target: WebhookTarget, method: 'HEAD' | 'GET', options: { timeoutMs: number }): Promise<{ status: number; location: string | null }> {
  return new Promise((resolve, reject) => {
    const headers = { 'User-Agent': 'InboxDesk-LinkCheck/1', Accept: '*/*' };
    requestTarget(
      target,
      { method, headers, timeoutMs: options.timeoutMs },
      (response) => {
        resolve({ status: response.statusCode ?? 0, location: response.headers.location ?? null });
        // Only the headers matter: the body is not read.
        response.destroy();
      },
      reject,
    ).end();
  });
}

/**
 * POSTs to a resolved target. Answers the status and the first `keep`
 * characters of the answer; throws on a network failure or when `timeoutMs` passes.
 */
export function postToTarget(
  target: WebhookTarget,
  headers: Record<string, string>,
  body: Uint8Array,
  options: { timeoutMs: number; keep?: number },
): Promise<{ status: number; start: string }> {
  const keep = options.keep ?? 0;
  return new Promise((resolve, reject) => {
    requestTarget(
      target,
      { method: 'POST', headers: { ...wireHeaders(headers), 'Content-Length': String(body.length) }, timeoutMs: options.timeoutMs },
      (response) => {
        const status = response.statusCode ?? 0;
        let start = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (start.length < keep) start += chunk.slice(0, keep - start.length);
        });
        response.on('end', () => resolve({ status, start }));
        response.on('error', reject);
      },
      reject,
    ).end(body);
  });
}
