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
 * How a token sits in the settings file. `data` seals the token together with
 * the one origin it may be sent to (SEALED_PREFIX + JSON), so editing the file
 * cannot move it: only main, through the keyring, can write that pair. Plain
 * text only with the user's consent, asked by main, where no keyring exists
 * (then the file holds the token itself, and the binding protects nothing more).
 */
export type StoredToken = { scheme: 'encrypted' | 'plain'; data: string };

/** A token opened for use, with the origin sealed with it; null for a token saved before origins were sealed. */
export interface OpenedToken {
  token: string;
  origin: string | null;
}

const SEALED_PREFIX = 'inbox-desk/token+origin\n';

function sealText(token: string, origin: string): string {
  return SEALED_PREFIX + JSON.stringify({ origin, token });
}

/** The pair sealed by sealText; a bare token (an older file) has no origin, and is never re-bound. */
function unsealText(text: string): OpenedToken | null {
  if (!text.startsWith(SEALED_PREFIX)) return text ? { token: text, origin: null } : null;
  try {
    const pair = JSON.parse(text.slice(SEALED_PREFIX.length)) as { origin?: unknown; token?: unknown };
    return typeof pair.token === 'string' && typeof pair.origin === 'string' ? { token: pair.token, origin: pair.origin } : null;
  } catch {
    return null;
  }
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
      return { scheme: 'encrypted', data: this.cipher.encrypt(sealText(token, origin)).toString('base64') };
    }
    if (allowPlaintext) {
      this.sessionOnly.delete(accountId);
      return { scheme: 'plain', data: sealText(token, origin) };
    }
    this.sessionOnly.set(accountId, { token, origin });
    return null;
  }

  open(accountId: string, stored: StoredToken | null): OpenedToken | null {
    if (stored === null) return this.sessionOnly.get(accountId) ?? null;
    if (stored.scheme === 'plain') return unsealText(stored.data);
    try {
      return unsealText(this.cipher.decrypt(Buffer.from(stored.data, 'base64')));
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
