/**
 * Release, in the service: a caught email's exact bytes sent on through the
 * SMTP server the user set (shared/domain/relay.ts), to allowlisted
 * recipients only. The SMTP client is nodemailer's (STARTTLS, TLS, AUTH,
 * dot-stuffing): a well-kept one, and smtp-server's own companion. The relay
 * adds one Received line and nothing else.
 */
import nodemailer from 'nodemailer';
import { checkRecipients, receivedLine, relayTarget, type RelayConfig } from '../shared/domain/relay.ts';
import type { StoredEmail, TeamStore } from './team-store.ts';

/** What the relay answered, in one sentence for the user, with its own words. */
export interface ReleaseAnswer {
  ok: boolean;
  /** HTTP status for the API: 200 sent, 400 refused before sending, 502 the relay said no or could not be reached. */
  status: 200 | 400 | 502;
  message: string;
}

/** The relay's settings as the service holds them: set at start, or by the app whenever the user changes them. */
export class RelayState {
  private current: RelayConfig | null;

  constructor(initial: RelayConfig | null = null) {
    this.current = initial;
  }

  get config(): RelayConfig | null {
    return this.current !== null && this.current.host !== '' ? this.current : null;
  }

  set(config: RelayConfig | null): void {
    this.current = config;
  }
}

const TIMEOUT_MS = 20_000;

/** The first sentence of an SMTP client error, with the relay's own answer when it gave one. */
function failure(error: unknown, target: string, timeoutMs: number): string {
  const e = error as { code?: string; response?: string; responseCode?: number; message?: string };
  if (e.response) return `${target} refused it: ${e.response.trim()}`;
  if (e.code === 'ETIMEDOUT' || e.code === 'ETIMEOUT') return `${target} did not answer within ${timeoutMs / 1000} s: nothing was sent.`;
  if (e.code === 'ECONNREFUSED' || e.code === 'ESOCKET' || e.code === 'ECONNECTION' || e.code === 'EDNS') return `Could not reach ${target}: ${e.message ?? e.code}.`;
  if (e.code === 'EAUTH') return `${target} did not take the login: ${e.message ?? 'authentication failed'}.`;
  if (e.code === 'ETLS') return `${target}: the secure connection failed (${e.message ?? 'TLS'}).`;
  return `${target}: ${e.message ?? String(error)}`;
}

/** A stored email released: its bytes as caught, its sender as the envelope's. Null when its bytes are gone. */
export async function releaseStored(team: TeamStore, email: StoredEmail, to: readonly string[], config: RelayConfig | null): Promise<ReleaseAnswer | null> {
  const raw = team.content(email.id)?.raw;
  return raw ? releaseMessage(raw, to, email.sender.email, config) : null;
}

/**
 * Sends `raw` to `to` through the relay. `sender` is the email's own sender,
 * the envelope's unless the settings name one the relay demands.
 */
export async function releaseMessage(
  raw: Buffer,
  to: readonly string[],
  sender: string,
  config: RelayConfig | null,
  options: { now?: Date; timeoutMs?: number } = {},
): Promise<ReleaseAnswer> {
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  if (config === null) return { ok: false, status: 400, message: 'Release is off: no relay is set (Settings → This computer → Send to a real inbox, or npm run catch with --relay-host).' };
  const refused = checkRecipients(to, config.allowlist);
  if (refused !== null) return { ok: false, status: 400, message: refused };
  const target = relayTarget(config);
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.security === 'tls',
    requireTLS: config.security === 'starttls',
    ignoreTLS: config.security === 'none',
    ...(config.user !== '' ? { auth: { user: config.user, pass: config.password } } : {}),
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    name: 'inbox-desk.localhost',
  });
  try {
    const info = await transport.sendMail({
      envelope: { from: config.envelopeFrom || sender, to: [...to] },
      raw: Buffer.concat([Buffer.from(receivedLine(config.host, options.now ?? new Date()), 'latin1'), raw]),
    });
    const rejected = (info.rejected as unknown[]).map(String);
    if (rejected.length > 0) return { ok: false, status: 502, message: `${target} refused ${rejected.join(', ')}: ${info.response}` };
    return { ok: true, status: 200, message: `Sent to ${to.join(', ')} through ${target}: ${info.response}` };
  } catch (error) {
    return { ok: false, status: 502, message: failure(error, target, timeoutMs) };
  } finally {
    transport.close();
  }
}
