/**
 * Release: a caught email sent on to a real inbox (the tester's own Gmail or
 * Outlook) through an SMTP server the user chose, so it can be seen in a real
 * client. Only to recipients on the user's allowlist; never automatically.
 * Pure: the settings, their checks, the allowlist, and the one header a relay
 * adds. Runs anywhere.
 */

export type RelaySecurity = 'starttls' | 'tls' | 'none';

export interface RelaySettings {
  /** The SMTP server's host; empty: release is off. */
  host: string;
  port: number;
  /** STARTTLS (587), TLS from the first byte (465), or none (a local server only). */
  security: RelaySecurity;
  /** The login, if the server asks for one (its password is sealed in main). */
  user: string;
  /** Who may receive: whole addresses, or `@example.com` / `*@example.com` for a domain. */
  allowlist: string[];
  /** The envelope sender the relay demands (often the login's own address); empty: the email's own sender. */
  envelopeFrom: string;
}

export const RELAY_OFF: RelaySettings = { host: '', port: 587, security: 'starttls', user: '', allowlist: [], envelopeFrom: '' };

/** What the relay is told by the service: the settings, and the password main opened for it. */
export interface RelayConfig extends RelaySettings {
  password: string;
}

const ADDRESS = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:".]+$/;
const DOMAIN_ENTRY = /^\*?@([^\s@<>(),;:"]+\.[^\s@<>(),;:".]+)$/;

export const isAddress = (text: string): boolean => ADDRESS.test(text);

/** Whether one recipient is on the allowlist: a whole address, or any address at a listed domain (not its subdomains). */
export function recipientAllowed(address: string, allowlist: readonly string[]): boolean {
  const wanted = address.trim().toLowerCase();
  if (!isAddress(wanted)) return false;
  const domain = wanted.slice(wanted.lastIndexOf('@') + 1);
  return allowlist.some((entry) => {
    const e = entry.trim().toLowerCase();
    const at = DOMAIN_ENTRY.exec(e);
    return at ? at[1] === domain : e === wanted;
  });
}

/** Recipients as typed ("a@x.test, b@x.test" or one per line), or the sentence that says which is not an address. */
export function parseRecipients(text: string): string[] | string {
  const parts = text
    .split(/[\s,;]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) return 'Type at least one address to send to.';
  const bad = parts.find((p) => !isAddress(p));
  if (bad !== undefined) return `“${bad}” is not an email address.`;
  return [...new Set(parts.map((p) => p.toLowerCase()))];
}

/** The recipients that may be sent to, or the sentence that names those that may not. */
export function checkRecipients(to: readonly string[], allowlist: readonly string[]): string | null {
  if (allowlist.length === 0) return 'No one is on the allowlist yet: add your own address (or @your-domain) in Settings → This computer → Send to a real inbox.';
  const refused = to.filter((address) => !recipientAllowed(address, allowlist));
  if (refused.length === 0) return null;
  return `Not on the allowlist: ${refused.join(', ')}. Only ${allowlist.join(', ')} may receive released mail.`;
}

/** Settings as given, or the sentence that says what is wrong. */
export function checkRelaySettings(value: unknown): RelaySettings | string {
  const v = value as Partial<RelaySettings> | null;
  if (typeof v !== 'object' || v === null) return 'Relay settings are an object.';
  const host = typeof v.host === 'string' ? v.host.trim() : '';
  if (host !== '' && !/^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/i.test(host)) return `“${host}” is not a host name.`;
  const port = v.port ?? 587;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65_535) return `The port is a number from 1 to 65535, not ${JSON.stringify(port)}.`;
  const security = v.security ?? 'starttls';
  if (security !== 'starttls' && security !== 'tls' && security !== 'none') return 'Security is STARTTLS, TLS or none.';
  const user = typeof v.user === 'string' ? v.user.trim() : '';
  if (user.length > 320) return 'The login is too long.';
  const allowlist = Array.isArray(v.allowlist) ? v.allowlist.map((e) => String(e).trim()).filter(Boolean) : [];
  const badEntry = allowlist.find((e) => !isAddress(e) && !DOMAIN_ENTRY.test(e));
  if (badEntry !== undefined) return `“${badEntry}” is neither an address nor @domain.`;
  if (allowlist.length > 200) return 'The allowlist takes at most 200 entries.';
  const envelopeFrom = typeof v.envelopeFrom === 'string' ? v.envelopeFrom.trim() : '';
  if (envelopeFrom !== '' && !isAddress(envelopeFrom)) return `The envelope sender “${envelopeFrom}” is not an email address.`;
  return { host, port, security, user, allowlist, envelopeFrom };
}

/** The one header relaying adds (RFC 5321 4.4): put before the caught bytes, which are sent unchanged. */
export function receivedLine(relayHost: string, at: Date): string {
  return `Received: by Inbox Desk (release to ${relayHost}); ${at.toUTCString().replace('GMT', '+0000')}\r\n`;
}

/** Where the relay is, in words and as the consent is keyed. */
export const relayTarget = (settings: Pick<RelaySettings, 'host' | 'port'>): string => `${settings.host}:${settings.port}`;
