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

/** How a token sits in the settings file. */
export type StoredToken =
  | { scheme: 'encrypted'; data: string }
  /** Only with the user's explicit consent, where no keyring exists. */
  | { scheme: 'plain'; data: string };

export class TokenVault {
  private readonly cipher: SecretCipher;
  /** Tokens the user gave but did not allow to be stored in clear: this session only. */
  private readonly sessionOnly = new Map<string, string>();

  constructor(cipher: SecretCipher) {
    this.cipher = cipher;
  }

  get encryptionAvailable(): boolean {
    return this.cipher.isAvailable();
  }

  /**
   * What to write for a token; null means "keep it in memory only".
   * Never writes clear text unless `allowPlaintext` is set and no keyring exists.
   */
  seal(accountId: string, token: string, allowPlaintext: boolean): StoredToken | null {
    if (this.cipher.isAvailable()) {
      this.sessionOnly.delete(accountId);
      return { scheme: 'encrypted', data: this.cipher.encrypt(token).toString('base64') };
    }
    if (allowPlaintext) {
      this.sessionOnly.delete(accountId);
      return { scheme: 'plain', data: token };
    }
    this.sessionOnly.set(accountId, token);
    return null;
  }

  open(accountId: string, stored: StoredToken | null): string | null {
    if (stored === null) return this.sessionOnly.get(accountId) ?? null;
    if (stored.scheme === 'plain') return stored.data;
    try {
      return this.cipher.decrypt(Buffer.from(stored.data, 'base64'));
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
