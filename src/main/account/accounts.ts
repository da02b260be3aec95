import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  SettingsSchema,
  type AccountInput,
  type AccountSummary,
  type Settings,
} from '../../shared/contract.ts';
import { DEFAULT_FLAVOR, FLAVOR_RECORDS, FLAVORS, likelyFlavor, type FlavorName } from '../../shared/flavors/index.ts';
import { CATCHER_ID, DEFAULT_CATCHER, type CatcherSettings } from '../../shared/domain/catcher.ts';
import { checkChaos, type ChaosSettings } from '../../shared/domain/chaos.ts';
import { checkRelaySettings, RELAY_OFF, relayTarget, type RelayConfig, type RelaySettings } from '../../shared/domain/relay.ts';
import { DEFAULT_SETTINGS } from '../../shared/domain/settings.ts';
import { patternProblem } from '../../shared/domain/tester-loop.ts';
import { apiRoot, type Connection } from '../api/client.ts';
import { ServiceError } from '../api/errors.ts';
import { JsonFile } from './json-file.ts';
import { originOf, transportOf } from './origin.ts';
import type { OpenedToken, StoredToken, TokenVault } from './vault.ts';


/** Older files also carry `origin` beside the token: it is dropped, never trusted (the vault seals the origin). */
const StoredTokenSchema = z.object({
  scheme: z.enum(['encrypted', 'plain']),
  data: z.string().min(1),
});

const StoredAccountSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  baseUrl: z.string(),
  teamId: z.string(),
  /** Files from before flavors hold API-document accounts. */
  flavor: z.enum(FLAVORS).default(DEFAULT_FLAVOR),
  token: StoredTokenSchema.nullable(),
  /** Origins on this machine or a private network the user let "Send test" reach, in main's dialog. */
  testTargets: z.array(z.string()).default([]),
  /** Fresh addresses (N) on this server: the user's pattern; empty learns the domain from its newest email. */
  addressPattern: z.string().max(200).default(''),
});
type StoredAccount = Omit<z.infer<typeof StoredAccountSchema>, 'token'> & { token: StoredToken | null };

/** What the user agreed to in main's own dialogs (never the renderer's word). */
export interface Consent {
  /** Keep the token unencrypted on disk where no keyring exists. */
  plaintext?: boolean;
  /** Send the token over plain http:// to a host beyond this machine. */
  clearTransport?: boolean;
}

export const WindowStateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(400).max(20_000),
  height: z.number().int().min(300).max(20_000),
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof WindowStateSchema>;

const Port = z.number().int().min(0).max(65535);
/** "This computer" (shared/domain/catcher.ts): its settings as they may be written. */
const CatcherSettingsSchema = z
  .object({
    enabled: z.boolean(),
    host: z.string().min(1).max(255),
    port: Port,
    tlsPort: Port.nullable(),
    auth: z.union([z.enum(['any', 'off']), z.object({ user: z.string().min(1).max(200) }).strict()]),
    requireAuth: z.boolean(),
    keep: z.number().int().min(1).max(10_000_000).nullable(),
    keepDays: z.number().int().min(1).max(36_500).nullable(),
    addressPattern: z.string().min(3).max(200),
    apiPort: Port.nullable(),
    maxRecipients: z.number().int().min(100).max(100_000),
  })
  .strict();
/** Release's relay as written; settings that no longer pass the checks load as none. */
const RelayFileSchema = z.preprocess(
  (value) => (typeof value === 'object' && value !== null ? value : {}),
  z.object({
    settings: z.preprocess((value) => {
      const checked = checkRelaySettings(value ?? RELAY_OFF);
      return typeof checked === 'string' ? RELAY_OFF : checked;
    }, z.custom<RelaySettings>()),
    password: StoredTokenSchema.nullable().default(null),
    consented: z.array(z.string().max(300)).max(50).default([]),
  }),
);

/** Files from before the catcher, or from before one of its settings, load with the defaults for what they lack. */
const CatcherFileSchema = z.preprocess(
  (value) => (typeof value === 'object' && value !== null ? value : {}),
  z.object({
    settings: z.preprocess((value) => ({ ...DEFAULT_CATCHER, ...(typeof value === 'object' && value !== null ? value : {}) }), CatcherSettingsSchema),
    /** The AUTH user's password, sealed by the vault as tokens are. */
    password: StoredTokenSchema.nullable().default(null),
    /** Chaos the user pinned (kept across restarts); an unpinned one is never written. */
    chaos: z.unknown().nullable().default(null),
    /** Release's relay: its settings, its password sealed as tokens are, and the relays the user allowed in main's dialog. */
    relay: RelayFileSchema,
  }),
);

const SettingsFileSchema = z.object({
  version: z.literal(1),
  accounts: z.array(StoredAccountSchema),
  activeId: z.string().nullable(),
  settings: SettingsSchema,
  window: WindowStateSchema.nullable(),
  catcher: CatcherFileSchema,
});
type SettingsFile = Omit<z.infer<typeof SettingsFileSchema>, 'accounts'> & { accounts: StoredAccount[] };

const EMPTY: SettingsFile = { version: 1, accounts: [], activeId: null, settings: DEFAULT_SETTINGS, window: null, catcher: { settings: DEFAULT_CATCHER, password: null, chaos: null, relay: { settings: RELAY_OFF, password: null, consented: [] } } };
/** Where Release's relay password is sealed: a vault entry and an origin of its own. */
const RELAY_SECRET_ID = 'this-computer-relay';
/** Where the catcher's AUTH password is sealed: no server origin, a name of its own. */
const CATCHER_SECRET_ORIGIN = 'smtp://this-computer';

/**
 * Accounts, settings and window state, persisted in one JSON file under
 * userData. Tokens are sealed by the vault; the renderer sees summaries only.
 */
export class AccountManager {
  private data: SettingsFile;
  private readonly file: JsonFile<SettingsFile>;
  private readonly vault: TokenVault;
  /** True when the settings file was damaged and a backup or defaults were used. */
  readonly recovered: boolean;

  private constructor(file: JsonFile<SettingsFile>, vault: TokenVault, data: SettingsFile, recovered: boolean) {
    this.file = file;
    this.vault = vault;
    this.data = data;
    this.recovered = recovered;
  }

  static async load(path: string, vault: TokenVault): Promise<AccountManager> {
    const file = new JsonFile(
      path,
      (value) => {
        const parsed = SettingsFileSchema.safeParse(value);
        return parsed.success ? parsed.data : null;
      },
      scrubTokens,
    );
    const { value, recovered } = await file.read();
    const data = value ?? structuredClone(EMPTY);
    if (data.activeId !== null && data.activeId !== CATCHER_ID && !data.accounts.some((a) => a.id === data.activeId)) data.activeId = null;
    return new AccountManager(file, vault, data, recovered);
  }

  get encryptionAvailable(): boolean {
    return this.vault.encryptionAvailable;
  }

  get activeId(): string | null {
    return this.data.activeId;
  }

  summaries(): AccountSummary[] {
    return this.data.accounts.map((account) => ({
      id: account.id,
      name: account.name,
      baseUrl: account.baseUrl,
      teamId: account.teamId,
      flavor: account.flavor,
      addressPattern: account.addressPattern,
      transport: URL.canParse(account.baseUrl) ? transportOf(account.baseUrl) : 'clear',
      hasToken: account.token !== null || this.vault.hasSessionToken(account.id),
      tokenStorage:
        account.token?.scheme === 'encrypted'
          ? 'encrypted'
          : account.token?.scheme === 'plain'
            ? 'plaintext'
            : this.vault.hasSessionToken(account.id)
              ? 'session-only'
              : null,
    }));
  }

  private find(id: string): StoredAccount {
    const account = this.data.accounts.find((a) => a.id === id);
    if (!account) throw new ServiceError('not-found', 'That account no longer exists.');
    return account;
  }

  /** Checks a base URL the way the client will use it; answers the normalised form. */
  static normaliseBaseUrl(baseUrl: string, flavor?: FlavorName): string {
    try {
      apiRoot(baseUrl, 'x', flavor);
    } catch (error) {
      const message = error instanceof Error ? error.message : 'Not a usable address.';
      throw new ServiceError('validation', message, { fields: { baseUrl: [message] } });
    }
    return baseUrl.trim().replace(/\/+$/, '');
  }

  /**
   * Adds or edits an account and makes it the active one. A stored token stays
   * bound to the origin it was saved for: moving an account to another origin
   * needs the token typed again.
   */
  async save(input: AccountInput, consent: Consent = {}): Promise<string> {
    // Not said (or "auto" without a test): a team means the API document's service.
    const flavor: FlavorName = input.flavor && input.flavor !== 'auto' ? input.flavor : likelyFlavor(input.teamId);
    const baseUrl = AccountManager.normaliseBaseUrl(input.baseUrl, flavor);
    const origin = originOf(baseUrl)!;
    const existing = input.id ? this.find(input.id) : null;
    const traits = FLAVOR_RECORDS[flavor];
    if (traits.teams && !input.teamId) {
      throw new ServiceError('validation', TEAM_NEEDED, { fields: { teamId: [TEAM_NEEDED] } });
    }
    if (traits.auth === 'bearer' && !existing && !input.token) {
      throw new ServiceError('validation', 'A new account needs an access token.', {
        fields: { token: ['Enter the access token.'] },
      });
    }
    if (transportOf(baseUrl) === 'clear' && !consent.clearTransport) {
      throw new ServiceError('validation', CLEAR_TRANSPORT_REFUSED, { fields: { baseUrl: [CLEAR_TRANSPORT_REFUSED] } });
    }
    const id = existing?.id ?? randomUUID();
    let token: StoredToken | null = existing?.token ?? null;
    if (input.token) {
      token = this.vault.seal(id, input.token, origin, consent.plaintext === true);
    } else if (existing && existing.token !== null && this.boundOrigin(existing) !== origin) {
      throw new ServiceError('validation', ORIGIN_CHANGED, { fields: { token: [ORIGIN_CHANGED] } });
    }
    const teamId = traits.teams ? (input.teamId ?? '') : '';
    const addressPattern = input.addressPattern ?? existing?.addressPattern ?? '';
    const patternError = addressPattern === '' ? null : patternProblem(addressPattern);
    if (patternError) throw new ServiceError('validation', patternError, { fields: { addressPattern: [patternError] } });
    const account: StoredAccount = { id, name: input.name || new URL(baseUrl).host, baseUrl, teamId, flavor, token, testTargets: existing?.testTargets ?? [], addressPattern };
    this.data.accounts = existing
      ? this.data.accounts.map((a) => (a.id === id ? account : a))
      : [...this.data.accounts, account];
    this.data.activeId = id;
    await this.persist();
    return id;
  }

  /** The origin the account's token is bound to, or null without a token. */
  boundOrigin(account: StoredAccount | string): string | null {
    const found = typeof account === 'string' ? this.find(account) : account;
    return this.vault.open(found.id, found.token)?.origin ?? null;
  }

  /** Whether the user let "Send test" of this account reach a local or private origin (main's dialog). */
  trustsTestTarget(id: string, origin: string): boolean {
    return this.find(id).testTargets.includes(origin);
  }

  async trustTestTarget(id: string, origin: string): Promise<void> {
    const account = this.find(id);
    if (!account.testTargets.includes(origin)) account.testTargets = [...account.testTargets, origin];
    await this.persist();
  }

  /** null goes back to the bundled demo; CATCHER_ID is "This computer". */
  async setActive(id: string | null): Promise<void> {
    if (id === CATCHER_ID && !this.data.catcher.settings.enabled) throw new ServiceError('validation', 'This computer is switched off: turn it on in Settings first.');
    if (id !== null && id !== CATCHER_ID) this.find(id);
    this.data.activeId = id;
    await this.persist();
  }

  async remove(id: string): Promise<void> {
    this.find(id);
    this.vault.forget(id);
    this.data.accounts = this.data.accounts.filter((a) => a.id !== id);
    if (this.data.activeId === id) this.data.activeId = this.data.accounts[0]?.id ?? null;
    await this.persist();
  }

  /** Base URL, team and the opened token of an account; main-only. */
  connection(id: string): Connection {
    const account = this.find(id);
    // A MailCare server without a login is reached with no secret at all.
    if (account.token === null && FLAVOR_RECORDS[account.flavor].auth === 'basic-or-none' && !this.vault.hasSessionToken(id)) {
      return { baseUrl: account.baseUrl, teamId: account.teamId, token: null, flavor: account.flavor };
    }
    const opened = this.openToken(account);
    if (opened.origin === null) {
      // Saved before the origin was sealed with it: the file's word for where it goes is not taken.
      throw new ServiceError('auth', `The token of "${account.name}" was saved by an older version of Inbox Desk. Enter it again in Settings.`);
    }
    if (opened.origin !== originOf(account.baseUrl)) {
      // Never happens through save(); a hand-edited file must not redirect the token either.
      throw new ServiceError('auth', `The token of "${account.name}" belongs to another server. Enter it again in Settings.`);
    }
    return { baseUrl: account.baseUrl, teamId: account.teamId, token: opened.token, flavor: account.flavor };
  }

  /**
   * The stored token of an account, for a connection test against `baseUrl`:
   * only when that address has the origin the token was saved for.
   */
  tokenFor(id: string, baseUrl: string): string {
    const account = this.find(id);
    const opened = this.openToken(account);
    if (opened.origin !== originOf(baseUrl)) {
      throw new ServiceError('validation', ORIGIN_CHANGED, { fields: { token: [ORIGIN_CHANGED] } });
    }
    return opened.token;
  }

  private openToken(account: StoredAccount): OpenedToken {
    const opened = this.vault.open(account.id, account.token);
    if (opened === null) {
      throw new ServiceError('auth', `No usable token is stored for "${account.name}". Enter it again in Settings.`);
    }
    return opened;
  }

  get settings(): Settings {
    return { ...this.data.settings };
  }

  async updateSettings(patch: Partial<Settings>): Promise<Settings> {
    this.data.settings = SettingsSchema.parse({ ...this.data.settings, ...patch });
    await this.persist();
    return this.settings;
  }

  get catcher(): CatcherSettings {
    return structuredClone(this.data.catcher.settings);
  }

  /** The catcher's AUTH password, opened (null: none set, or kept for the last session only and gone). */
  catcherPassword(): string | null {
    return this.vault.open(CATCHER_ID, this.data.catcher.password)?.token ?? null;
  }

  get catcherHasPassword(): boolean {
    return this.data.catcher.password !== null || this.vault.hasSessionToken(CATCHER_ID);
  }

  /** Changes the catcher's settings; a password is sealed as tokens are (the session only without a keyring). */
  async updateCatcher(patch: Partial<CatcherSettings>, password?: string): Promise<CatcherSettings> {
    const parsed = CatcherSettingsSchema.safeParse({ ...this.data.catcher.settings, ...patch });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ServiceError('validation', `That setting is not one the catcher takes: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
    }
    const next = { settings: parsed.data };
    this.data.catcher.settings = next.settings;
    if (next.settings.auth === 'any' || next.settings.auth === 'off') {
      this.vault.forget(CATCHER_ID);
      this.data.catcher.password = null;
    } else if (password !== undefined) {
      this.data.catcher.password = this.vault.seal(CATCHER_ID, password, CATCHER_SECRET_ORIGIN, false);
    }
    // Switched off while shown: back to the demo.
    if (!next.settings.enabled && this.data.activeId === CATCHER_ID) this.data.activeId = null;
    await this.persist();
    return this.catcher;
  }

  get relay(): RelaySettings {
    return structuredClone(this.data.catcher.relay.settings);
  }

  get relayHasPassword(): boolean {
    return this.data.catcher.relay.password !== null || this.vault.hasSessionToken(RELAY_SECRET_ID);
  }

  /** The relay as the service is told it: with its password opened, once the user allowed this relay; null otherwise. */
  relayConfig(): RelayConfig | null {
    const settings = this.data.catcher.relay.settings;
    if (settings.host === '' || !this.relayConsented()) return null;
    return { ...settings, password: this.vault.open(RELAY_SECRET_ID, this.data.catcher.relay.password)?.token ?? '' };
  }

  /** Whether the user allowed the relay now set (its host and port), in main's own dialog. */
  relayConsented(): boolean {
    return this.data.catcher.relay.consented.includes(relayTarget(this.data.catcher.relay.settings));
  }

  async consentToRelay(): Promise<void> {
    const target = relayTarget(this.data.catcher.relay.settings);
    if (this.data.catcher.relay.consented.includes(target)) return;
    this.data.catcher.relay.consented = [...this.data.catcher.relay.consented, target].slice(-50);
    await this.persist();
  }

  /** Changes the relay; a password given is sealed as tokens are (for this session only without a keyring), an empty one removes it. */
  async updateRelay(value: unknown, password?: string): Promise<RelaySettings> {
    const checked = checkRelaySettings(value);
    if (typeof checked === 'string') throw new ServiceError('validation', checked);
    // A password typed for one relay is never sent to another: a new host or port needs it typed again.
    const moved = relayTarget(checked) !== relayTarget(this.data.catcher.relay.settings);
    this.data.catcher.relay.settings = checked;
    if (password === '' || checked.user === '' || (moved && password === undefined)) {
      this.vault.forget(RELAY_SECRET_ID);
      this.data.catcher.relay.password = null;
    } else if (password !== undefined) {
      this.data.catcher.relay.password = this.vault.seal(RELAY_SECRET_ID, password, `smtp://${relayTarget(checked)}`, false);
    }
    await this.persist();
    return this.relay;
  }

  /** The chaos This computer starts with: the pinned one, else none (a restart turns chaos off). */
  get pinnedChaos(): ChaosSettings | null {
    const kept = this.data.catcher.chaos === null ? null : checkChaos(this.data.catcher.chaos);
    return kept !== null && typeof kept !== 'string' && kept.pinned ? kept : null;
  }

  /** Keeps chaos across restarts when pinned; forgets it otherwise. */
  async keepChaos(chaos: ChaosSettings): Promise<void> {
    const next = chaos.pinned ? chaos : null;
    if (JSON.stringify(next) === JSON.stringify(this.data.catcher.chaos)) return;
    this.data.catcher.chaos = next;
    await this.persist();
  }

  get windowState(): WindowState | null {
    return this.data.window;
  }

  async saveWindowState(state: WindowState): Promise<void> {
    const parsed = WindowStateSchema.safeParse(state);
    if (!parsed.success) return;
    this.data.window = parsed.data;
    await this.persist();
  }

  private persist(): Promise<void> {
    return this.file.write(this.data);
  }
}

export const TEAM_NEEDED = 'Enter the team id: the part after /api/teams/ in your service’s address.';
export const ORIGIN_CHANGED =
  'The stored token is only ever sent to the server it was saved for. Enter the access token again to use this address.';
export const CLEAR_TRANSPORT_REFUSED =
  'Plain http:// would send the access token unencrypted across the network. Use https://, or confirm the warning.';

/** A damaged settings file is kept for inspection, but never with a token in it. */
export function scrubTokens(text: string): string {
  try {
    const value: unknown = JSON.parse(text);
    const walk = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(walk);
      if (typeof node !== 'object' || node === null) return node;
      return Object.fromEntries(
        Object.entries(node).map(([key, child]) => [key, key === 'token' || key === 'data' ? '[removed]' : walk(child)]),
      );
    };
    return JSON.stringify(walk(value), null, 2);
  } catch {
    // Not JSON: drop every quoted value after a "token" or "data" key, then any long opaque run.
    return text
      .replace(/("(?:token|data)"\s*:\s*)("(?:[^"\\]|\\.)*"?|\{[^}]*\}?)/g, '$1"[removed]"')
      .replace(/[A-Za-z0-9+/=_-]{16,}/g, '[removed]');
  }
}
