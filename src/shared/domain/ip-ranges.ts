/**
 * Which addresses are the public internet. Webhooks and "Send test" carry
 * whole emails and secret tokens; aimed at this machine, a private network,
 * cloud metadata or a special-purpose range, they become a way in. The ranges
 * are IANA's special-purpose registries as ipaddr.js keeps them (a maintained
 * table, not a hand list): only ordinary unicast is public.
 */
import ipaddr from 'ipaddr.js';

/** NAT64's well-known prefix (RFC 6052): the IPv4 address in its last 32 bits is the real target. */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');

/** True only for a globally routable unicast address; anything special-purpose, malformed or odd is false. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return false;
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const v6 = parsed as ipaddr.IPv6;
  // An IPv6 form of an IPv4 address is judged by that address.
  if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
  if (v6.match(NAT64)) {
    const bytes = v6.toByteArray().slice(12);
    return isPublicAddress(bytes.join('.'));
  }
  return v6.range() === 'unicast';
}

