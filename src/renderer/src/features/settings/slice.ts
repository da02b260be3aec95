import type { StateCreator } from 'zustand';
import type { AccountsState, AppInfo, BridgeError, RateLimitState, Settings } from '../../../../shared/contract.ts';
import { asBridgeError, call } from '../../bridge.ts';
import type { AppState } from '../../store.ts';

export interface AccountDraft {
  id?: string;
  name: string;
  baseUrl: string;
  teamId: string;
  token: string;
  allowPlaintextToken: boolean;
}

export const EMPTY_ACCOUNT: AccountDraft = { name: '', baseUrl: '', teamId: '', token: '', allowPlaintextToken: false };

export interface SettingsSlice {
  accounts: AccountsState | null;
  settings: Settings;
  appInfo: AppInfo | null;
  rateLimit: RateLimitState;
  accountDraft: AccountDraft;
  accountErrors: Record<string, string[]>;
  accountError: BridgeError | null;
  connectionResult: string | null;
  busy: boolean;
  bootstrap: () => Promise<void>;
  setAccounts: (state: AccountsState) => void;
  changeAccountDraft: (patch: Partial<AccountDraft>) => void;
  editAccount: (id: string | null) => void;
  testAccount: () => Promise<void>;
  saveAccount: () => Promise<void>;
  switchAccount: (id: string) => Promise<void>;
  removeAccount: (id: string) => Promise<void>;
  updateSettings: (patch: Partial<Settings>) => Promise<void>;
}

export const createSettingsSlice: StateCreator<AppState, [], [], SettingsSlice> = (set, get) => ({
  accounts: null,
  settings: { pageSize: 25, confirmDelete: true, theme: 'system' },
  appInfo: null,
  rateLimit: { limit: null, remaining: null, blockedUntil: null },
  accountDraft: EMPTY_ACCOUNT,
  accountErrors: {},
  accountError: null,
  connectionResult: null,
  busy: false,

  bootstrap: async () => {
    try {
      const [accounts, settings, appInfo] = await Promise.all([
        call('getAccounts', undefined),
        call('getSettings', undefined),
        call('getAppInfo', undefined),
      ]);
      set({ accounts, settings, appInfo });
      if (accounts.settingsRecovered) {
        get().notify({
          kind: 'bad-response',
          message: 'The settings file was damaged; Inbox Desk restored the last good copy (or the defaults). Check your accounts.',
          details: {},
        });
      }
    } catch (error) {
      get().notify(asBridgeError(error));
    }
    await get().loadList();
  },

  setAccounts: (accounts) => {
    const switched = accounts.activeId !== get().accounts?.activeId;
    set({ accounts });
    if (switched) {
      // Nothing from the previous account stays on screen.
      get().closeMessage();
      set({ list: null, selectedId: null, page: 1, automations: null, listError: null });
      void get().loadList();
    }
  },

  changeAccountDraft: (patch) => {
    const accountErrors = { ...get().accountErrors };
    for (const key of Object.keys(patch)) delete accountErrors[key];
    set({ accountDraft: { ...get().accountDraft, ...patch }, accountErrors, connectionResult: null });
  },

  editAccount: (id) => {
    const account = get().accounts?.accounts.find((a) => a.id === id);
    set({
      accountDraft: account
        ? { id: account.id, name: account.name, baseUrl: account.baseUrl, teamId: account.teamId, token: '', allowPlaintextToken: false }
        : EMPTY_ACCOUNT,
      accountErrors: {},
      accountError: null,
      connectionResult: null,
    });
  },

  testAccount: async () => {
    const draft = get().accountDraft;
    set({ busy: true, accountError: null, connectionResult: null });
    try {
      const result = await call('testConnection', {
        baseUrl: draft.baseUrl,
        teamId: draft.teamId,
        ...(draft.token ? { token: draft.token } : draft.id ? { accountId: draft.id } : {}),
      });
      set({ busy: false, connectionResult: `Connected: ${result.total} emails in this team.` });
    } catch (error) {
      const bridgeError = asBridgeError(error);
      set({ busy: false, accountError: bridgeError, accountErrors: bridgeError.details.fields ?? {} });
    }
  },

  saveAccount: async () => {
    const draft = get().accountDraft;
    set({ busy: true, accountError: null });
    try {
      const accounts = await call('saveAccount', {
        ...(draft.id ? { id: draft.id } : {}),
        name: draft.name,
        baseUrl: draft.baseUrl,
        teamId: draft.teamId,
        ...(draft.token ? { token: draft.token } : {}),
        ...(draft.allowPlaintextToken ? { allowPlaintextToken: true } : {}),
      });
      set({ busy: false, accountDraft: EMPTY_ACCOUNT, accountErrors: {} });
      get().setAccounts(accounts);
      get().notify({ kind: 'not-found', message: 'Account saved.', details: {} }, 'info');
    } catch (error) {
      const bridgeError = asBridgeError(error);
      set({ busy: false, accountError: bridgeError, accountErrors: bridgeError.details.fields ?? {} });
    }
  },

  switchAccount: async (id) => {
    try {
      get().setAccounts(await call('switchAccount', { id }));
    } catch (error) {
      get().notify(asBridgeError(error));
    }
  },

  removeAccount: async (id) => {
    try {
      get().setAccounts(await call('removeAccount', { id }));
    } catch (error) {
      get().notify(asBridgeError(error));
    }
  },

  updateSettings: async (patch) => {
    try {
      set({ settings: await call('updateSettings', patch) });
      if (patch.pageSize !== undefined) get().goToPage(1);
    } catch (error) {
      get().notify(asBridgeError(error));
    }
  },
});
