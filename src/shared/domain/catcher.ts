/**
 * "This computer": the catcher, an account that runs the reference service
 * in a worker of main's and takes the mail your own software sends over SMTP,
 * as Mailpit does. Its settings, their defaults, and what the user pastes
 * into their app's SMTP settings. Runs anywhere.
 */

import type { ChaosSettings } from './chaos.ts';
import type { RelaySettings } from './relay.ts';

/** The account id the catcher goes by, in the switcher and in `activeId`. */
export const CATCHER_ID = 'this-computer';

export type CatcherAuth = 'any' | 'off' | { user: string };

export interface CatcherSettings {
  enabled: boolean;
  /** Where SMTP listens: loopback unless the user chose another interface, and was told what that means. */
  host: string;
  port: number;
  /** A second port that speaks TLS from its first byte (SMTPS); off by default. */
  tlsPort: number | null;
  /** AUTH: any user and password (default), none offered, or one user (its password sealed in main). */
  auth: CatcherAuth;
  /** Refuse mail from a client that has not logged in. */
  requireAuth: boolean;
  /** The newest N kept; null keeps everything. */
  keep: number | null;
  /** None older than N days; null keeps them. */
  keepDays: number | null;
  /** Fresh addresses (N) are made at this domain, or by the user's pattern (`qa+{random}@myapp.test`). */
  addressPattern: string;
  /** The API for tests and agents (Mailpit's routes, the wait, /mcp) on 127.0.0.1 at this port; null: off. */
  apiPort: number | null;
  /** Recipients taken per message (at least 100, RFC 5321); the rest are answered 452. */
  maxRecipients: number;
}

export const DEFAULT_CATCHER: CatcherSettings = {
  enabled: true,
  host: '127.0.0.1',
  port: 1025,
  tlsPort: null,
  auth: 'any',
  requireAuth: false,
  keep: 500,
  keepDays: null,
  addressPattern: '{random}@inbox-desk.test',
  // Mailpit's port: a suite configured for Mailpit points here unchanged.
  apiPort: 8025,
  maxRecipients: 100,
};

export type CatcherStatus = 'off' | 'starting' | 'listening' | 'failed';

/** What the renderer sees of the catcher: its settings (no password), whether it listens, and why not. */
export interface CatcherState {
  settings: CatcherSettings;
  status: CatcherStatus;
  /** Where it listens, once it does. */
  smtp: { host: string; port: number; tlsPort: number | null } | null;
  /** Why it does not: one sentence. */
  error: string | null;
  /** A password is set for the `auth` user (sealed in main; never sent here). */
  hasPassword: boolean;
  /** Where the API for tests and agents answers (its token stays in main: copyCatcherToken), or why it does not. */
  api?: { url: string } | { error: string } | null;
  /** What its SMTP answers "no" with on purpose (chaos.ts); off unless set. */
  chaos?: ChaosSettings;
  /** After a failed start: when it tries again by itself (epoch ms). */
  retryAt?: number | null;
  /** Release's relay: its settings (no password), and whether the user allowed it in main's dialog. */
  relay?: { settings: RelaySettings; hasPassword: boolean; consented: boolean };
}

/** What a test suite or an agent is given to reach This computer's API (the token is copied by main). */
export function apiRows(url: string): { label: string; value: string }[] {
  return [
    { label: 'Mailpit API', value: `${url}/api/v1` },
    { label: 'Wait', value: `${url}/api/teams/${CATCHER_ID}/emails/wait?inbox=you@inbox-desk.test&timeout=30` },
    { label: 'MCP', value: `${url}/mcp` },
  ];
}

export const isLoopbackHost = (host: string): boolean => host === 'localhost' || host === '::1' || /^127\./.test(host);

/** The rows a user pastes into their app's SMTP settings, with the words frameworks use. */
export function smtpSettingsRows(state: CatcherState): { label: string; value: string; env?: string }[] {
  const { settings } = state;
  const host = state.smtp?.host ?? settings.host;
  // An app on this computer connects to loopback; 0.0.0.0 is where it listens, not where to connect.
  const connectTo = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const port = state.smtp?.port ?? settings.port;
  const rows = [
    { label: 'Host', value: connectTo, env: 'SMTP_HOST' },
    { label: 'Port', value: String(port), env: 'SMTP_PORT' },
    { label: 'Encryption', value: `none, or STARTTLS (a certificate made for this computer: turn certificate checks off)${state.smtp?.tlsPort ? `; TLS from the start on port ${state.smtp.tlsPort}` : ''}` },
  ];
  if (settings.auth === 'off') rows.push({ label: 'User and password', value: 'none: leave them empty', env: 'SMTP_USER' });
  else if (settings.auth === 'any') rows.push({ label: 'User and password', value: 'any, or none: Inbox Desk takes whatever your app sends', env: 'SMTP_USER' });
  else rows.push({ label: 'User', value: settings.auth.user, env: 'SMTP_USER' }, { label: 'Password', value: 'the one you set here', env: 'SMTP_PASSWORD' });
  return rows;
}

/** The same, as one line a framework's settings file or a shell takes. */
export function smtpUrl(state: CatcherState): string {
  const rows = smtpSettingsRows(state);
  return `smtp://${rows[0]!.value}:${rows[1]!.value}`;
}
