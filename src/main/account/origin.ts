/**
 * Where a token may go. A stored token belongs to the origin (scheme, host,
 * port) it was saved for: main never sends it anywhere else, whatever address
 * the renderer hands in later.
 */

/** scheme://host:port of a server address; null when it is not a URL. */
export function originOf(baseUrl: string): string | null {
  if (!URL.canParse(baseUrl.trim())) return null;
  return new URL(baseUrl.trim()).origin;
}

/** Loopback names and addresses: traffic to them never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // Only the name itself: x.localhost is whatever the resolver says it is, and may be anywhere.
  if (host === 'localhost') return true;
  if (host === '::1') return true;
  return /^127(?:\.\d{1,3}){3}$/.test(host);
}

export type Transport = 'encrypted' | 'loopback' | 'clear';

/**
 * How a token would travel to this address: over TLS, over loopback (plain
 * http that never leaves the machine), or in clear across the network.
 */
export function transportOf(baseUrl: string): Transport {
  const url = new URL(baseUrl.trim());
  if (url.protocol === 'https:') return 'encrypted';
  return isLoopbackHost(url.hostname) ? 'loopback' : 'clear';
}
