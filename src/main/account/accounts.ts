import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  SettingsSchema,
  type AccountInput,
  type AccountSummary,
  type Settings,
} from '../../shared/contract.ts';
import { apiRoot, type Connection } from '../api/client.ts';
import { ServiceError } from '../api/errors.ts';
import { JsonFile } from './json-file.ts';
import type { TokenVault, StoredToken } from './vault.ts';

export const DEFAULT_SETTINGS: Settings = { pageSize: 25, confirmDelete: true, theme: 'system' };

const StoredTokenSchema = z.discriminatedUnion('scheme', [
  z.object({ scheme: z.literal('encrypted'), data: z.string().min(1) }),
  z.object({ scheme: z.literal('plain'), data: z.string().min(1) }),
]);

const StoredAccountSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  baseUrl: z.string(),
  teamId: z.string(),
  token: StoredTokenSchema.nullable(),
});
type StoredAccount = z.infer<typeof StoredAccountSchema>;

export const WindowStateSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(400).max(20_000),
  height: z.number().int().min(300).max(20_000),
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof WindowStateSchema>;

const SettingsFileSchema = z.object({
  version: z.literal(1),
  accounts: z.array(StoredAccountSchema),
  activeId: z.string().nullable(),
  settings: SettingsSchema,
  window: WindowStateSchema.nullable(),
});
type SettingsFile = z.infer<typeof SettingsFileSchema>;

const EMPTY: SettingsFile = { version: 1, accounts: [], activeId: null, settings: DEFAULT_SETTINGS, window: null };

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
    const file = new JsonFile(path, (value) => {
      const parsed = SettingsFileSchema.safeParse(value);
      return parsed.success ? parsed.data : null;
    });
    const { value, recovered } = await file.read();
    const data = value ?? structuredClone(EMPTY);
    if (data.activeId !== null && !data.accounts.some((a) => a.id === data.activeId)) data.activeId = null;
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
  static normaliseBaseUrl(baseUrl: string): string {
    try {
      apiRoot(baseUrl, 'x');
    } catch (error) {
      const message = error instanceof Error ? error.message : 'Not a usable address.';
      throw new ServiceError('validation', message, { fields: { baseUrl: [message] } });
    }
    return baseUrl.trim().replace(/\/+$/, '');
  }

  /** Adds or edits an account and makes it the active one. */
  async save(input: AccountInput): Promise<string> {
    const baseUrl = AccountManager.normaliseBaseUrl(input.baseUrl);
    const existing = input.id ? this.find(input.id) : null;
    if (!existing && !input.token) {
      throw new ServiceError('validation', 'A new account needs an access token.', {
        fields: { token: ['The access token is required.'] },
      });
    }
    const id = existing?.id ?? randomUUID();
    let token: StoredToken | null = existing?.token ?? null;
    if (input.token) token = this.vault.seal(id, input.token, input.allowPlaintextToken === true);
    const account: StoredAccount = { id, name: input.name, baseUrl, teamId: input.teamId, token };
    this.data.accounts = existing
      ? this.data.accounts.map((a) => (a.id === id ? account : a))
      : [...this.data.accounts, account];
    this.data.activeId = id;
    await this.persist();
    return id;
  }

  async setActive(id: string): Promise<void> {
    this.find(id);
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
    const token = this.vault.open(id, account.token);
    if (token === null) {
      throw new ServiceError('auth', `No usable token is stored for "${account.name}". Enter it again in Settings.`);
    }
    return { baseUrl: account.baseUrl, teamId: account.teamId, token };
  }

  get settings(): Settings {
    return { ...this.data.settings };
  }

  async updateSettings(patch: Partial<Settings>): Promise<Settings> {
    this.data.settings = SettingsSchema.parse({ ...this.data.settings, ...patch });
    await this.persist();
    return this.settings;
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
