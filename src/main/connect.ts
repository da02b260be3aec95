/**
 * Connecting a server: where a pasted address points, testing it (which kind
 * of server it is, with what secret), and saving it, each with the consent
 * main asks for in its own dialogs. No electron: handlers.ts calls these.
 */
import type { AccountInput, ParsedArgs, Results } from '../shared/contract.ts';
import { detectionOrder, FLAVOR_RECORDS, likelyFlavor, type FlavorName } from '../shared/flavors/index.ts';
import { parseServerAddress } from '../shared/domain/server-address.ts';
import { AccountManager, TEAM_NEEDED, type Consent } from './account/accounts.ts';
import { originOf, transportOf } from './account/origin.ts';
import { detectServer } from './api/detect.ts';
import { ServiceError } from './api/errors.ts';
import type { HttpOptions } from './api/http.ts';

export interface ConsentQuestion {
  kind: 'plaintext-token' | 'clear-transport' | 'private-target' | 'relay';
  title: string;
  message: string;
  confirmLabel: string;
}

export interface ConnectDeps {
  accounts: AccountManager;
  /** Main's native dialog; true only on an explicit yes. */
  confirm: (question: ConsentQuestion) => Promise<boolean>;
  http?: Partial<HttpOptions>;
}

/**
 * Where an address the user typed or pasted points: base, team (from the
 * field, else from the path) and the flavor, when it is said or the path
 * shows it. Refuses what is not a usable address, with a field message.
 */
function resolveAddress(input: { baseUrl: string; teamId?: string; flavor?: 'auto' | FlavorName }): {
  baseUrl: string;
  teamId: string;
  flavor?: FlavorName;
} {
  const parsed = parseServerAddress(input.baseUrl);
  if (!parsed.ok) throw new ServiceError('validation', parsed.message, { fields: { baseUrl: [parsed.message] } });
  const flavor = input.flavor && input.flavor !== 'auto' ? input.flavor : parsed.flavor;
  return { baseUrl: AccountManager.normaliseBaseUrl(parsed.baseUrl, flavor), teamId: input.teamId?.trim() || parsed.teamId || '', flavor };
}

function clearTransportQuestion(baseUrl: string): ConsentQuestion {
  return {
    kind: 'clear-transport',
    title: 'Send the token unencrypted?',
    message: `${originOf(baseUrl)} uses plain http://. The access token and every email would cross the network unencrypted, readable by anyone on the way. Use https:// unless this network is yours.`,
    confirmLabel: 'Use http:// anyway',
  };
}

export function privateTargetQuestion(origin: string, purpose: 'send-test' | 'link-check' = 'send-test'): ConsentQuestion {
  return purpose === 'send-test'
    ? {
        kind: 'private-target',
        title: 'Send a test to this machine or your network?',
        message: `${origin} is on this computer or a private network. Inbox Desk will post the test payload there and show the start of its answer. Allow it for this account only if you run that receiver.`,
        confirmLabel: 'Allow for this account',
      }
    : {
        kind: 'private-target',
        title: 'Check links on this machine or your network?',
        message: `An email links to ${origin}, which is on this computer or a private network. Inbox Desk would ask it for each link's status (HEAD, without your token). Allow it for this account only if you expect such links.`,
        confirmLabel: 'Allow for this account',
      };
}

/** Release's first send through a relay: the user sees where caught mail goes, and who may receive it. */
export function relayQuestion(target: string, user: string, allowlist: readonly string[]): ConsentQuestion {
  return {
    kind: 'relay',
    title: 'Send caught mail through this server?',
    message: `Inbox Desk will connect to ${target}${user ? ` and log in as ${user}` : ''}, and send the caught email's exact bytes on, only to ${allowlist.join(', ')}, each time you ask. Nothing is ever sent by itself. Allow it only if this is your own mail server or account.`,
    confirmLabel: 'Allow this server',
  };
}

const PLAINTEXT_QUESTION: ConsentQuestion = {
  kind: 'plaintext-token',
  title: 'Store the token unencrypted?',
  message:
    'This system has no keyring, so the access token would sit in clear text in the settings file, readable by any program running as you. Otherwise it is kept for this session only.',
  confirmLabel: 'Store unencrypted',
};

/** Saves (or edits) an account, asking main's consent where the address or the keyring needs it; answers its id. */
export async function saveAccount(input: ParsedArgs['saveAccount'], deps: ConnectDeps): Promise<string> {
  const { accounts } = deps;
  const where = resolveAddress(input);
  const baseUrl = where.baseUrl;
  const consent: Consent = {};
  if (transportOf(baseUrl) === 'clear') {
    // Asked again whenever the address moves to a clear-text origin.
    const known = input.id ? accounts.summaries().find((a) => a.id === input.id) : undefined;
    consent.clearTransport =
      (known !== undefined && known.transport === 'clear' && originOf(known.baseUrl) === originOf(baseUrl)) ||
      (await deps.confirm(clearTransportQuestion(baseUrl)));
  }
  if (input.token && input.allowPlaintextToken && !accounts.encryptionAvailable) {
    consent.plaintext = await deps.confirm(PLAINTEXT_QUESTION);
  }
  return accounts.save({ ...input, baseUrl, teamId: where.teamId, flavor: where.flavor ?? input.flavor } as AccountInput, consent);
}

/** Finds out which kind of server an address is, with the secret typed or the one stored for that origin. */
export async function testConnection(input: ParsedArgs['testConnection'], deps: ConnectDeps): Promise<Results['testConnection']> {
  const { accounts } = deps;
  const where = resolveAddress(input);
  let secret = input.token ?? null;
  if (!secret && input.accountId && accounts.boundOrigin(input.accountId) !== null) {
    secret = accounts.tokenFor(input.accountId, where.baseUrl);
  }
  let candidates: FlavorName[] = where.flavor ? [where.flavor] : detectionOrder(where.teamId);
  // A kind that needs a team and a token is not worth asking without them.
  const serviceNeeds: Record<string, string[]> = {};
  if (!where.teamId) serviceNeeds.teamId = [TEAM_NEEDED];
  if (!secret) serviceNeeds.token = ['Enter the access token.'];
  if (Object.keys(serviceNeeds).length > 0) candidates = candidates.filter((f) => !FLAVOR_RECORDS[f].teams && FLAVOR_RECORDS[f].auth !== 'bearer');
  if (candidates.length === 0) {
    throw new ServiceError('validation', Object.values(serviceNeeds)[0]![0]!, { fields: serviceNeeds });
  }
  if (secret && transportOf(where.baseUrl) === 'clear' && !(await deps.confirm(clearTransportQuestion(where.baseUrl)))) {
    throw new ServiceError('validation', 'Not tested: the token was not sent over plain http://.', {
      fields: { baseUrl: ['Use https:// for this server.'] },
    });
  }
  try {
    const found = await detectServer({ baseUrl: where.baseUrl, teamId: where.teamId, secret, candidates, http: deps.http });
    return { ok: true as const, ...found, baseUrl: where.baseUrl, teamId: FLAVOR_RECORDS[found.flavor].teams ? where.teamId : '' };
  } catch (error) {
    if (error instanceof ServiceError && error.kind === 'auth') {
      // Without a team, the server that asked is MailCare's kind: its secret is a login email and password.
      const login = FLAVOR_RECORDS[where.flavor ?? likelyFlavor(where.teamId)].auth === 'basic-or-none';
      const message = login
        ? secret
          ? 'The server did not accept this login (401): check the email and password.'
          : 'This server asks for a login (401): enter its login email and password.'
        : secret
          ? 'The server did not accept this token (401). Check it for a typo, or whether it has expired.'
          : 'This server asks for an access token (401): enter it.';
      throw new ServiceError('auth', message, { status: 401, fields: login ? { username: [message] } : { token: [message] } });
    }
    throw error;
  }
}
