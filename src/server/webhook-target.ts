/**
 * Where a webhook may go. An automation's URL is written by whoever may edit
 * rules, and the service posts whole emails and the secret token there: left
 * open, that reaches the service's own loopback, the LAN and cloud metadata.
 * Addresses are checked after DNS resolution, and the connection is pinned to
 * the checked address so a second lookup cannot swap it (DNS rebinding).
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv6 one carries (mapped, NAT64, 6to4), if any. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  const sixToFour = /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/.exec(lower);
  const pair = hex ?? sixToFour;
  if (!pair) return null;
  const high = parseInt(pair[1]!, 16);
  const low = parseInt(pair[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True for loopback, private, link-local, multicast and reserved addresses. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6) return true;
  const inner = embeddedIpv4(address);
  if (inner !== null) return blocked.check(inner, 'ipv4');
  return blocked.check(address, 'ipv6');
}

export interface WebhookTarget {
  url: URL;
  /** The address to connect to: already checked. */
  address: string;
  family: 4 | 6;
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
  return { url, address: chosen.address, family: chosen.family === 6 ? 6 : 4 };
}
