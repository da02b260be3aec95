/**
 * What every domain's handlers share: the open account session, the secrets
 * to keep out of messages (redaction), and main's consent for private
 * targets. Built once by ../handlers.ts; each domain module takes it.
 */
import type { EventName, Events } from '../../shared/contract.ts';
import type { AccountManager } from '../account/accounts.ts';
import type { AccountSession } from '../account-session.ts';
import type { ServiceClient } from '../api/client.ts';
import { privateTargetQuestion, type ConsentQuestion } from '../connect.ts';

export interface HandlerContext {
  accounts: AccountManager;
  session: AccountSession;
  emit: <E extends EventName>(event: E, payload: Events[E]) => void;
  withClient: <T>(run: (client: ServiceClient) => Promise<T>) => Promise<T>;
  secrets: Redaction;
  /** A local or private target (Send test, the link check) is reached only once the user said so, in main's own dialog. */
  allowPrivateTarget: (origin: string, purpose: 'send-test' | 'link-check') => Promise<boolean>;
}

/**
 * Every secret main holds, for taking out of any message: the account tokens
 * (opened once; opening one may ask the OS keyring) and the demo's, read again
 * only after the accounts changed.
 */
export class Redaction {
  private known: string[] | null = null;
  private readonly accounts: AccountManager;
  private readonly session: AccountSession;

  constructor(accounts: AccountManager, session: AccountSession) {
    this.accounts = accounts;
    this.session = session;
  }

  /** The accounts changed: read the secrets again when next needed. */
  forget(): void {
    this.known = null;
  }

  all(): string[] {
    const local = [...this.session.localTokens].filter(Boolean);
    if (this.known && local.every((token) => this.known!.includes(token))) return this.known;
    const found: string[] = [...local];
    for (const summary of this.accounts.summaries()) {
      try {
        const { token } = this.accounts.connection(summary.id);
        // A Basic login's password alone is a secret too.
        if (token !== null) found.push(token, ...token.split(':').filter((part) => part.length >= 6));
      } catch {
        // No usable token: nothing to redact.
      }
    }
    this.known = found;
    return found;
  }
}

/** Consent to reach local or private targets: asked once per account and origin (the demo's only for this run). */
export function privateTargetConsent(accounts: AccountManager, confirm: (question: ConsentQuestion) => Promise<boolean>): HandlerContext['allowPrivateTarget'] {
  const demoTargets = new Set<string>();
  return async (origin, purpose) => {
    const id = accounts.activeId;
    if (id === null ? demoTargets.has(origin) : accounts.trustsTestTarget(id, origin)) return true;
    if (!(await confirm(privateTargetQuestion(origin, purpose)))) return false;
    if (id === null) demoTargets.add(origin);
    else await accounts.trustTestTarget(id, origin);
    return true;
  };
}
