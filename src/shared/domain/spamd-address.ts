/** Where SpamAssassin's spamd listens, as the user writes it in Settings: read by main's SPAMC client and checked by the form. */

/** `host:port`, `[v6]:port`, or a host alone (port 783). Null when it is not one. */
export function spamdAddress(text: string): { host: string; port: number } | null {
  const trimmed = text.trim();
  const match = /^(?:\[([0-9a-f:.]+)\]|([A-Za-z0-9.-]+))(?::(\d{1,5}))?$/i.exec(trimmed);
  if (!match) return null;
  const port = match[3] === undefined ? 783 : Number(match[3]);
  if (port < 1 || port > 65535) return null;
  return { host: match[1] ?? match[2]!, port };
}
