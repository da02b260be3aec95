/**
 * How the client speaks to each kind of server: paths, auth, media type,
 * automations on the wire, and what a status means there. ServiceClient
 * asks its flavor; nothing else in src names a flavor but the records (test/unit/boundaries.test.ts).
 */
import type { AutomationInput } from '../../../shared/domain/automation.ts';
import type { FLAVOR_RECORDS, FlavorName } from '../../../shared/flavors/index.ts';
import { ServiceError } from '../errors.ts';

export type Operation =
  | 'listEmails'
  | 'getEmail'
  | 'getEmailBody'
  | 'deleteEmail'
  | 'deleteAllEmails'
  | 'setFavorite'
  | 'getAttachment'
  | 'listAutomations'
  | 'createAutomation'
  | 'updateAutomation'
  | 'deleteAutomation';

export interface ClientFlavor {
  /** The server kind's constants (shared/flavors/): media type, paths, automation fields. */
  record: (typeof FLAVOR_RECORDS)[FlavorName];
  /** The API root every path is resolved against (ends with a slash). */
  apiRoot(baseUrl: string, teamId: string): URL;
  /** The Authorization header for the stored secret, or null to send none. */
  authorization(secret: string | null): string | null;
  /** The whole automation as this server wants it written (PUT replaces; POST creates). */
  automationToWire(input: Required<AutomationInput>): Record<string, unknown>;
  /** Says what a failure means on this server. */
  explain(error: ServiceError, operation: Operation): ServiceError;
  /** The raw message's own bytes from what the server sent for message/rfc2822. */
  rawBytes(sent: Buffer): Buffer;
}

/** Refuses what is not http(s) or carries credentials; answers the base without query or fragment. */
export function checkedBase(baseUrl: string): URL {
  if (!URL.canParse(baseUrl)) throw new ServiceError('bad-request', `"${baseUrl}" is not a web address.`);
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ServiceError('bad-request', 'The server address must start with http:// or https://.');
  }
  if (url.username || url.password) throw new ServiceError('bad-request', 'Put the token in its own field, not in the URL.');
  url.search = '';
  url.hash = '';
  return url;
}

/** The base's path without trailing slashes, to put the API's path after. */
export const basePath = (url: URL): string => url.pathname.replace(/\/+$/, '');
