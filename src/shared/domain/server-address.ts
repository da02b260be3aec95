/**
 * What people paste as a server address: a bare host, a base URL, a base with
 * /api, or the full `…/api/teams/{team}` that `npm run server` prints. This
 * finds the base, the team and the flavor the path gives away, and offers a
 * scheme when none was typed (https, or http for this machine). Runs anywhere.
 */
import { likelyFlavor, type FlavorName } from '../flavors/index.ts';

export type ParsedAddress =
  | {
      ok: true;
      /** scheme://host[:port][/prefix], no trailing slash. */
      baseUrl: string;
      /** The team named in the path, if any. */
      teamId?: string;
      /** `/api/teams/…` means the API document's service. */
      flavor?: FlavorName;
      /** The scheme Inbox Desk put in front of what was typed. */
      addedScheme?: 'https' | 'http';
    }
  | { ok: false; message: string };

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?$/i;

export function parseServerAddress(input: string): ParsedAddress {
  let text = input.trim();
  if (text === '') return { ok: false, message: 'Enter the server address, for example https://mail.example.com.' };
  let addedScheme: 'https' | 'http' | undefined;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    if (/^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text)) {
      return { ok: false, message: 'The server address must start with https:// (or http:// on this machine).' };
    }
    const host = text.split(/[/?#]/)[0] ?? '';
    addedScheme = LOOPBACK.test(host) ? 'http' : 'https';
    text = `${addedScheme}://${text}`;
  }
  if (!URL.canParse(text)) return { ok: false, message: `"${input.trim()}" is not a web address.` };
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: 'The server address must start with https:// (or http:// on this machine).' };
  }
  if (url.username || url.password) return { ok: false, message: 'Put the token in its own field, not in the address.' };
  if (url.hostname === '') return { ok: false, message: 'The address needs a host name.' };

  const path = url.pathname.replace(/\/+$/, '');
  let prefix = path;
  let teamId: string | undefined;
  let flavor: FlavorName | undefined;
  const team = /^(.*?)\/api\/teams\/([^/]+)(?:\/.*)?$/.exec(path);
  const api = /^(.*?)\/api(?:\/.*)?$/.exec(path);
  if (team) {
    prefix = team[1]!;
    try {
      teamId = decodeURIComponent(team[2]!);
    } catch {
      teamId = team[2]!;
    }
    // A path that names a team shows the kind of server that has teams.
    flavor = likelyFlavor(teamId);
  } else if (api) {
    prefix = api[1]!;
  }
  return {
    ok: true,
    baseUrl: `${url.origin}${prefix}`,
    ...(teamId !== undefined ? { teamId } : {}),
    ...(flavor ? { flavor } : {}),
    ...(addedScheme ? { addedScheme } : {}),
  };
}
