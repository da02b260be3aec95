/**
 * The catcher's API token: made once and kept beside its mail (DIR/api-token,
 * readable by this user only), so a test suite's config keeps working across
 * restarts, and the app and `npm run catch` on the same folder take the same.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomToken } from '../index.ts';

export const TOKEN_FILE = 'api-token';

export function keptToken(dataDir: string | undefined): string {
  if (!dataDir) return randomToken();
  const file = join(dataDir, TOKEN_FILE);
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (/^[\w-]{16,}$/.test(kept)) return kept;
  } catch {
    // None yet: made below.
  }
  mkdirSync(dataDir, { recursive: true });
  const token = randomToken();
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}
