/**
 * Encrypts tokens at rest. In Electron this is safeStorage (see
 * safe-storage.ts); tests use a real cipher of their own.
 */
export interface SecretCipher {
  /** False where the OS offers no real keyring (Linux `basic_text`). */
  isAvailable(): boolean;
  encrypt(plain: string): Buffer;
  decrypt(encrypted: Buffer): string;
}

/**
 * How a token sits in the settings file, with the one origin it may be sent
 * to. Plain text only with the user's consent, asked by main, where no keyring exists.
 */
export type StoredToken = { scheme: 'encrypted' | 'plain'; data: string; origin: string };

/** A token opened for use, with the origin it is bound to. */
export interface OpenedToken {
  token: string;
  origin: string;
}

export class TokenVault {
  private readonly cipher: SecretCipher;
  /** Tokens the user gave but did not allow to be stored in clear: this session only. */
  private readonly sessionOnly = new Map<string, OpenedToken>();

  constructor(cipher: SecretCipher) {
    this.cipher = cipher;
  }

  get encryptionAvailable(): boolean {
    return this.cipher.isAvailable();
  }

  /**
   * What to write for a token bound to `origin`; null means "keep it in memory only".
   * Never writes clear text unless `allowPlaintext` is set and no keyring exists.
   */
  seal(accountId: string, token: string, origin: string, allowPlaintext: boolean): StoredToken | null {
    if (this.cipher.isAvailable()) {
      this.sessionOnly.delete(accountId);
      return { scheme: 'encrypted', data: this.cipher.encrypt(token).toString('base64'), origin };
    }
    if (allowPlaintext) {
      this.sessionOnly.delete(accountId);
      return { scheme: 'plain', data: token, origin };
    }
    this.sessionOnly.set(accountId, { token, origin });
    return null;
  }

  open(accountId: string, stored: StoredToken | null): OpenedToken | null {
    if (stored === null) return this.sessionOnly.get(accountId) ?? null;
    if (stored.scheme === 'plain') return { token: stored.data, origin: stored.origin };
    try {
      return { token: this.cipher.decrypt(Buffer.from(stored.data, 'base64')), origin: stored.origin };
    } catch {
      return null;
    }
  }

  hasSessionToken(accountId: string): boolean {
    return this.sessionOnly.has(accountId);
  }

  forget(accountId: string): void {
    this.sessionOnly.delete(accountId);
  }
}
