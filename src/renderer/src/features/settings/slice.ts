import type { ChaosSettings } from '../../../../shared/domain/chaos.ts';
import type { RelaySettings } from '../../../../shared/domain/relay.ts';
import type { AccountsState, AppInfo, Args, BridgeError, MenuKeys, RateLimitState, Settings, UpdateStatus } from '../../../../shared/contract.ts';
import { DEFAULT_FLAVOR, FLAVOR_RECORDS, FLAVORS, type FlavorName } from '../../../../shared/flavors/index.ts';
import { DEFAULT_SETTINGS } from '../../../../shared/domain/settings.ts';
import { CATCHER_ID, isLoopbackHost } from '../../../../shared/domain/catcher.ts';
import { asBridgeError } from '../../bridge.ts';
import type { Slice } from '../../store.ts';

export interface AccountDraft {
  id?: string;
  name: string;
  baseUrl: string;
  teamId: string;
  /** `auto`: Test connection finds out. */
  flavor: 'auto' | FlavorName;
  /** MailCare's HTTP Basic login (its user's email); the token field is then the password. */
  username: string;
  token: string;
  allowPlaintextToken: boolean;
  /** Fresh addresses (N) at this server; empty: at the domain of its newest email. */
  addressPattern: string;
}

export const EMPTY_ACCOUNT: AccountDraft = {
  name: '',
  baseUrl: '',
  teamId: '',
  flavor: 'auto',
  username: '',
  token: '',
  allowPlaintextToken: false,
  addressPattern: '',
};

/** The one secret main stores: a bearer token, or MailCare's "email:password". Pure. */
export function draftSecret(draft: Pick<AccountDraft, 'flavor' | 'username' | 'token'>): string | undefined {
  if (asksLogin(draft.flavor) && draft.username.trim()) return `${draft.username.trim()}:${draft.token}`;
  return draft.token || undefined;
}

/** Whether this kind of server is reached with a login (email and password), not a token. */
export function asksLogin(flavor: AccountDraft['flavor']): boolean {
  return flavor !== 'auto' && FLAVOR_RECORDS[flavor].auth === 'basic-or-none';
}

/** The flavor of the account on screen (the demo speaks the API document's). */
export function activeFlavor(accounts: AccountsState | null): FlavorName {
  return accounts?.accounts.find((a) => a.id === accounts.activeId)?.flavor ?? DEFAULT_FLAVOR;
}

export interface SettingsSlice {
  accounts: AccountsState | null;
  settings: Settings;
  appInfo: AppInfo | null;
  rateLimit: RateLimitState;
  /** The app's own update, as main reports it. */
  update: UpdateStatus | null;
  accountDraft: AccountDraft;
  accountErrors: Record<string, string[]>;
  accountError: BridgeError | null;
  connectionResult: string | null;
  /** The last Save failed its connection test: offer to save regardless. */
  offerSaveAnyway: boolean;
  busy: boolean;
  bootstrap: () => Promise<void>;
  setAccounts: (state: AccountsState) => void;
  changeAccountDraft: (patch: Partial<AccountDraft>) => void;
  editAccount: (id: string | null) => void;
  testAccount: () => Promise<boolean>;
  /** Tests first and saves only when the server answers, unless `anyway`. */
  saveAccount: (anyway?: boolean) => Promise<void>;
  /** null: back to the demo. */
  switchAccount: (id: string | null) => Promise<void>;
  removeAccount: (id: string) => Promise<void>;
  updateSettings: (patch: Partial<Settings>) => Promise<void>;
  /** "This computer": its settings (a password goes to main, which seals it). */
  updateCatcher: (patch: Args['updateCatcher']) => Promise<boolean>;
  /** This computer's API token to the clipboard: main copies it, this side never holds it. */
  copyCatcherToken: () => Promise<void>;
  /** What This computer's SMTP answers "no" with (chaos.ts); true when main took it. */
  setChaos: (chaos: ChaosSettings) => Promise<boolean>;
  /** Restarts into the downloaded update (main quits and installs). */
  installUpdate: () => void;
  /** Release's relay (relay.ts); a password goes to main, which seals it. True when main took it. */
  updateRelay: (settings: RelaySettings, password?: string) => Promise<boolean>;
  /** Tells main the keys its menu shows (the registry and the keymap); a failure changes nothing on screen. */
  setMenuKeys: (keys: MenuKeys) => void;
  /** Release's dialog: the email it sends on, while it is open. */
  releaseFor: string | null;
  /** Who the last release went to, offered again. */
  lastReleaseTo: string;
  openRelease: (emailId: string) => void;
  closeRelease: () => void;
  /** Sends the email on: null when sent (a notice gives the relay's answer), else the sentence for the dialog. */
  releaseEmail: (id: string, to: string[]) => Promise<string | null>;
}

export const createSettingsSlice: Slice<SettingsSlice> = ({ call, confirm }) => (set, get) => ({
  accounts: null,
  settings: DEFAULT_SETTINGS,
  appInfo: null,
  rateLimit: { limit: null, remaining: null, blockedUntil: null },
  update: null,
  accountDraft: EMPTY_ACCOUNT,
  accountErrors: {},
  accountError: null,
  connectionResult: null,
  offerSaveAnyway: false,
  busy: false,
  releaseFor: null,
  lastReleaseTo: '',

  bootstrap: async () => {
    try {
      const [accounts, settings, appInfo, loop] = await Promise.all([
        call('getAccounts', undefined),
        call('getSettings', undefined),
        call('getAppInfo', undefined),
        call('getLoopState', undefined),
      ]);
      set({ accounts, settings, appInfo, loop });
      if (accounts.settingsRecovered) {
        get().notify('The settings file was damaged; Inbox Desk restored the last good copy (or the defaults). Check your accounts.', { tone: 'error' });
      }
    } catch (error) {
      get().notify(asBridgeError(error));
    }
    await get().loadList();
  },

  setAccounts: (accounts) => {
    const switched = accounts.activeId !== get().accounts?.activeId;
    // This computer shown, and its service listening anew (started, or started again on new settings): its list, from it.
    const catcherBack = accounts.activeId === CATCHER_ID && accounts.catcher.status === 'listening' && get().accounts?.catcher.status !== 'listening';
    set({ accounts });
    if (switched) {
      // Nothing from the previous account stays on screen: the reader, the rules, the inbox.
      get().closeMessage();
      set({ automations: null });
      get().showAccount();
    } else if (catcherBack) void get().loadList({ fresh: true });
  },

  changeAccountDraft: (patch) => {
    const accountErrors = { ...get().accountErrors };
    for (const key of Object.keys(patch)) delete accountErrors[key];
    set({ accountDraft: { ...get().accountDraft, ...patch }, accountErrors, connectionResult: null, offerSaveAnyway: false });
  },

  editAccount: (id) => {
    const account = get().accounts?.accounts.find((a) => a.id === id);
    set({
      accountDraft: account
        ? { ...EMPTY_ACCOUNT, id: account.id, name: account.name, baseUrl: account.baseUrl, teamId: account.teamId, flavor: account.flavor, addressPattern: account.addressPattern }
        : EMPTY_ACCOUNT,
      accountErrors: {},
      accountError: null,
      connectionResult: null,
      offerSaveAnyway: false,
    });
  },

  testAccount: async () => {
    const draft = get().accountDraft;
    const secret = draftSecret(draft);
    set({ busy: true, accountError: null, accountErrors: {}, connectionResult: null, offerSaveAnyway: false });
    try {
      const result = await call('testConnection', {
        baseUrl: draft.baseUrl,
        ...(draft.teamId ? { teamId: draft.teamId } : {}),
        flavor: draft.flavor,
        ...(secret ? { token: secret } : draft.id ? { accountId: draft.id } : {}),
      });
      // What was found becomes what is saved: the cleaned address, the team, the kind of server.
      set({
        busy: false,
        accountDraft: { ...get().accountDraft, baseUrl: result.baseUrl, teamId: result.teamId, flavor: result.flavor },
        connectionResult: `Connected to ${FLAVOR_RECORDS[result.flavor].label} at ${result.baseUrl}: ${result.total} ${result.total === 1 ? 'email' : 'emails'}.`,
      });
      return true;
    } catch (error) {
      const bridgeError = asBridgeError(error);
      const fields = bridgeError.details.fields ?? {};
      // Main says the server wants a login: the form shows the login fields, whatever kind was guessed.
      const draftNow = get().accountDraft;
      const loginFlavor = FLAVORS.find((name) => asksLogin(name));
      const accountDraft = fields.username && draftNow.flavor === 'auto' && loginFlavor ? { ...draftNow, flavor: loginFlavor } : draftNow;
      set({ busy: false, accountError: bridgeError, accountErrors: fields, accountDraft });
      return false;
    }
  },

  saveAccount: async (anyway = false) => {
    if (!anyway && !(await get().testAccount())) {
      // Nothing saved; the draft stays as typed.
      set({ offerSaveAnyway: get().accountError?.kind !== 'validation' });
      return;
    }
    const draft = get().accountDraft;
    const secret = draftSecret(draft);
    set({ busy: true, accountError: null, offerSaveAnyway: false });
    try {
      const accounts = await call('saveAccount', {
        ...(draft.id ? { id: draft.id } : {}),
        name: draft.name,
        baseUrl: draft.baseUrl,
        ...(draft.teamId ? { teamId: draft.teamId } : {}),
        flavor: draft.flavor,
        ...(secret ? { token: secret } : {}),
        ...(draft.allowPlaintextToken ? { allowPlaintextToken: true } : {}),
        addressPattern: draft.addressPattern.trim(),
      });
      // The typed token leaves the renderer's memory with the draft, unless the user has
      // already started another edit meanwhile (main announces the account before this returns).
      const untouched = get().accountDraft === draft;
      set({ busy: false, accountErrors: {}, connectionResult: null, ...(untouched ? { accountDraft: EMPTY_ACCOUNT } : {}) });
      get().setAccounts(accounts);
      get().notify('Account saved.');
    } catch (error) {
      const bridgeError = asBridgeError(error);
      set({ busy: false, accountError: bridgeError, accountErrors: bridgeError.details.fields ?? {} });
    }
  },

  switchAccount: async (id) => {
    // A rule with unsaved changes belongs to this account: ask before leaving it.
    await new Promise<void>((resolve) => get().guardDraft(resolve));
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

  setChaos: async (chaos) => {
    try {
      get().setAccounts(await call('setChaos', { chaos }));
      return true;
    } catch (error) {
      get().notify(asBridgeError(error));
      return false;
    }
  },

  updateRelay: async (settings, password) => {
    try {
      get().setAccounts(await call('updateRelay', { settings, ...(password !== undefined ? { password } : {}) }));
      get().notify(settings.host === '' ? 'Release is off: no relay is set.' : `Saved: Release sends through ${settings.host}:${settings.port}.`);
      return true;
    } catch (error) {
      get().notify(asBridgeError(error));
      return false;
    }
  },

  setMenuKeys: (keys) => void call('setMenuKeys', { keys }).catch(() => undefined),
  openRelease: (emailId) => set({ releaseFor: emailId }),
  closeRelease: () => set({ releaseFor: null }),

  releaseEmail: async (id, to) => {
    try {
      const answer = await call('releaseEmail', { id, to });
      if (!answer.ok) return answer.message;
      set({ releaseFor: null, lastReleaseTo: to.join(', ') });
      get().notify(answer.message, { ms: 8000 });
      return null;
    } catch (error) {
      return asBridgeError(error).message;
    }
  },

  copyCatcherToken: async () => {
    try {
      const { copied } = await call('copyCatcherToken', undefined);
      get().notify(copied ? 'Copied the API token: send it as Authorization: Bearer <token>, or as the password of HTTP Basic with any user.' : 'The API for tests is not answering: there is no token to copy.');
    } catch (error) {
      get().notify(asBridgeError(error));
    }
  },

  updateCatcher: async (patch) => {
    // Another interface than loopback is the user's explicit choice, with what it means said first.
    if (patch.host !== undefined && !isLoopbackHost(patch.host) && isLoopbackHost(get().accounts?.catcher.settings.host ?? '127.0.0.1')) {
      const asked = confirm(
        `Listen on ${patch.host === '0.0.0.0' ? 'every network interface' : patch.host}? Other computers that can reach this one could then send mail into Inbox Desk, and try logins against it. Keep it on this computer unless your app runs elsewhere (a VM, a container, a phone).`,
      );
      if (!asked) return false;
    }
    try {
      get().setAccounts(await call('updateCatcher', patch));
      return true;
    } catch (error) {
      get().notify(asBridgeError(error));
      return false;
    }
  },

  installUpdate: () => void call('installUpdate', undefined).catch((error: unknown) => get().notify(asBridgeError(error))),

  updateSettings: async (patch) => {
    try {
      set({ settings: await call('updateSettings', patch) });
      if (patch.pageSize !== undefined) get().goToPage(1);
    } catch (error) {
      get().notify(asBridgeError(error));
    }
  },
});
