/** Accounts and settings: connect (test, save with consent), switch, remove, and the app's own facts. */
import type { AccountsState } from '../../shared/contract.ts';
import { CATCHER_ID } from '../../shared/domain/catcher.ts';
import { checkChaos } from '../../shared/domain/chaos.ts';
import { checkRecipients, isAddress, relayTarget } from '../../shared/domain/relay.ts';
import type { AccountManager } from '../account/accounts.ts';
import type { Catcher } from '../catcher.ts';
import { ServiceError } from '../api/errors.ts';
import { relayQuestion, saveAccount, testConnection } from '../connect.ts';
import type { HandlerDeps, HandlerTable } from './context.ts';
import { normaliseExternalUrl } from '../security.ts';
import type { HandlerContext } from './context.ts';

export type AccountHandlers = Pick<
  HandlerTable,
  | 'getAccounts'
  | 'saveAccount'
  | 'testConnection'
  | 'switchAccount'
  | 'removeAccount'
  | 'getSettings'
  | 'updateSettings'
  | 'updateCatcher'
  | 'copyCatcherToken'
  | 'setChaos'
  | 'updateRelay'
  | 'releaseEmail'
  | 'openExternal'
  | 'getAppInfo'
  | 'installUpdate'
  | 'setMenuKeys'
>;

/** What the renderer knows of the accounts, the catcher's state among them. */
export function accountsState(accounts: AccountManager, catcher: Catcher | undefined): AccountsState {
  return {
    accounts: accounts.summaries(),
    activeId: accounts.activeId,
    demo: accounts.activeId === null,
    encryptionAvailable: accounts.encryptionAvailable,
    settingsRecovered: accounts.recovered,
    catcher: {
      ...(catcher?.state ?? { settings: accounts.catcher, status: 'off', smtp: null, error: 'This build has no catcher.', hasPassword: accounts.catcherHasPassword }),
      relay: { settings: accounts.relay, hasPassword: accounts.relayHasPassword, consented: accounts.relayConsented() },
    },
  };
}

export function accountHandlers(context: HandlerContext, deps: HandlerDeps, endSession: () => void): AccountHandlers & { announce: () => AccountsState } {
  const { accounts, session } = context;
  const { mail, desktop } = deps;
  const { catcher } = mail;
  const connect = { accounts, confirm: desktop.confirm, http: mail.http };
  const state = () => accountsState(accounts, catcher);
  const announce = (): AccountsState => {
    // Accounts changed: the secrets to redact are read again when next needed.
    context.secrets.forget();
    const now = state();
    context.emit('accountsChanged', now);
    return now;
  };
  return {
    announce,
    getAccounts: async () => state(),
    saveAccount: async (input) => {
      const id = await saveAccount(input, connect);
      if (session.activeKey === id) endSession();
      return announce();
    },
    testConnection: (input) => testConnection(input, connect),
    switchAccount: async ({ id }) => {
      // Deletes waiting for their undo window belong to the account they were made in.
      await session.flush('running');
      await accounts.setActive(id);
      endSession();
      return announce();
    },
    removeAccount: async ({ id }) => {
      await accounts.remove(id);
      deps.kept?.snapshots?.forget(id);
      if (session.activeKey === id || accounts.activeId === null) endSession();
      return announce();
    },
    setChaos: async ({ chaos }) => {
      const checked = checkChaos(chaos);
      if (typeof checked === 'string') throw new ServiceError('validation', checked);
      if (!catcher) throw new ServiceError('validation', 'This build has no catcher.');
      catcher.setChaos(checked);
      await accounts.keepChaos(checked);
      return announce();
    },
    updateRelay: async ({ settings, password }) => {
      await accounts.updateRelay(settings, password);
      // The service releases only through a relay the user allowed: a new one waits for the dialog.
      catcher?.setRelay(accounts.relayConfig());
      return announce();
    },
    releaseEmail: async ({ id, to }) => {
      if (!catcher) throw new ServiceError('validation', 'This build has no catcher.');
      if (accounts.activeId !== CATCHER_ID) throw new ServiceError('validation', 'Release sends mail This computer caught: open This computer first.');
      const relay = accounts.relay;
      if (relay.host === '') throw new ServiceError('validation', 'Set a relay first: Settings → This computer → Send to a real inbox.');
      const bad = to.find((address) => !isAddress(address));
      if (bad !== undefined) throw new ServiceError('validation', `“${bad}” is not an email address.`);
      const refused = checkRecipients(to, relay.allowlist);
      if (refused !== null) throw new ServiceError('validation', refused);
      if (relay.user !== '' && !accounts.relayHasPassword) {
        throw new ServiceError('validation', `Type the password for ${relay.user} at ${relayTarget(relay)} in Settings → This computer → Send to a real inbox (a password is never carried from one server to another).`);
      }
      if (!accounts.relayConsented()) {
        // The first send through a relay is the user's word in main's own dialog, never the renderer's.
        if (!(await desktop.confirm(relayQuestion(relayTarget(relay), relay.user, relay.allowlist)))) return { ok: false, message: `Not sent: ${relayTarget(relay)} was not allowed.` };
        await accounts.consentToRelay();
        announce();
      }
      catcher.setRelay(accounts.relayConfig());
      const answer = await catcher.release(id, to);
      if (answer === null) throw new ServiceError('not-found', 'That email is no longer on This computer.');
      return { ok: answer.ok, message: answer.message };
    },
    copyCatcherToken: async () => {
      const token = catcher?.apiToken() ?? null;
      if (token !== null) desktop.copyText?.(token);
      return { copied: token !== null && desktop.copyText !== undefined };
    },
    updateCatcher: async ({ password, ...patch }) => {
      const settings = await accounts.updateCatcher(patch, password);
      // Started again where it must listen or keep mail differently; an open client reconnects.
      await catcher?.apply(settings, accounts.catcherPassword(), accounts.catcherHasPassword);
      if (session.activeKey === CATCHER_ID) endSession();
      return announce();
    },
    getSettings: async () => accounts.settings,
    updateSettings: async (patch) => {
      const settings = await accounts.updateSettings(patch);
      // The spam score's spamd is This computer's sa-check's too.
      catcher?.setSpamd(accounts.settings.spamd);
      return settings;
    },
    openExternal: async ({ url }) => {
      const safe = normaliseExternalUrl(url);
      if (safe === null) throw new ServiceError('bad-request', 'Only web and mailto links open outside the app.');
      await desktop.openExternal(safe);
      return null;
    },
    getAppInfo: async () => ({ ...deps.app, demo: accounts.activeId === null }),
    setMenuKeys: async ({ keys }) => {
      desktop.setMenuKeys?.(keys);
      return null;
    },
    installUpdate: async () => {
      desktop.installUpdate?.();
      return null;
    },
  };
}
