import { safeStorage } from 'electron';
import type { SecretCipher } from './vault.ts';

/**
 * Electron's safeStorage as a SecretCipher. On Linux, the `basic_text`
 * backend encrypts with a hard-coded password: that counts as unavailable.
 */
export const electronCipher: SecretCipher = {
  isAvailable() {
    if (!safeStorage.isEncryptionAvailable()) return false;
    if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') return false;
    return true;
  },
  encrypt: (plain) => safeStorage.encryptString(plain),
  decrypt: (encrypted) => safeStorage.decryptString(encrypted),
};
