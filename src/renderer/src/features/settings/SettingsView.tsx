import { useEffect, type FormEvent } from 'react';
import { keepFocus } from '../commands/focus.ts';
import { THEMES, type DENSITIES, type Settings } from '../../../../shared/domain/settings.ts';
import { ErrorBanner } from '../../ErrorBanner.tsx';
import { useKeyHints } from '../commands/use-hints.ts';
import { useStore } from '../../store.ts';
import { FLAVOR_RECORDS, FLAVORS } from '../../../../shared/flavors/index.ts';
import { parseServerAddress } from '../../../../shared/domain/server-address.ts';
import { ShortcutSetting } from '../loop/ShortcutSetting.tsx';
import { SpamdSetting } from '../qa/SpamdSetting.tsx';
import { CatcherSettings } from '../catcher/CatcherSettings.tsx';
import { KeymapEditor } from './KeymapEditor.tsx';
import { asksLogin, type AccountDraft } from './slice.ts';

const FLAVOR_CHOICES: { value: AccountDraft['flavor']; label: string }[] = [
  { value: 'auto', label: 'Find out when testing' },
  ...FLAVORS.map((name) => ({ value: name, label: FLAVOR_RECORDS[name].label })),
];

function AccountForm() {
  const draft = useStore((s) => s.accountDraft);
  const errors = useStore((s) => s.accountErrors);
  const error = useStore((s) => s.accountError);
  const result = useStore((s) => s.connectionResult);
  const offerSaveAnyway = useStore((s) => s.offerSaveAnyway);
  const busy = useStore((s) => s.busy);
  const encryptionAvailable = useStore((s) => s.accounts?.encryptionAvailable ?? true);
  const { withKey } = useKeyHints();
  const { changeAccountDraft, saveAccount, testAccount, editAccount } = useStore.getState();
  // A login (email and password) for a server that asks one; a team and a token otherwise.
  const login = asksLogin(draft.flavor);
  // What the address field will become, said before anything is sent.
  const parsed = draft.baseUrl.trim() ? parseServerAddress(draft.baseUrl) : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void saveAccount();
  };
  const field = (name: 'name' | 'baseUrl' | 'teamId' | 'username' | 'token' | 'addressPattern', label: string, hint: string | null, type = 'text') => (
    <label>
      {label}
      <input
        name={name}
        type={type}
        value={draft[name]}
        autoComplete="off"
        aria-invalid={Boolean(errors[name])}
        aria-describedby={hint ? `account-${name}-hint` : undefined}
        onChange={(e) => changeAccountDraft({ [name]: e.target.value } as Partial<AccountDraft>)}
      />
      {hint && (
        <small className="hint" id={`account-${name}-hint`}>
          {hint}
        </small>
      )}
      {errors[name] && (
        <span className="field-error" role="alert">
          {errors[name]!.join(' ')}
        </span>
      )}
    </label>
  );

  const addressHint = !parsed
    ? 'Paste what your service shows: https://mail.example.com, …/api, or …/api/teams/your-team.'
    : !parsed.ok
      ? null
      : [
          parsed.addedScheme ? `Will use ${parsed.addedScheme}://.` : null,
          parsed.teamId && !draft.teamId ? `Team “${parsed.teamId}” comes from the address.` : null,
        ]
          .filter(Boolean)
          .join(' ') || null;

  return (
    <form className="account-form" onSubmit={submit} aria-label="Account" id="account-form" tabIndex={-1}>
      <h3>{draft.id ? 'Edit account' : 'Connect an account'}</h3>
      {error && <ErrorBanner error={error} />}
      {result && (
        <p className="ok" role="status">
          {result}
        </p>
      )}
      {field('baseUrl', 'Server address', addressHint)}
      <label>
        Server type
        <select value={draft.flavor} onChange={(e) => changeAccountDraft({ flavor: e.target.value as AccountDraft['flavor'] })}>
          {FLAVOR_CHOICES.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      {!login && field('teamId', 'Team id', draft.flavor === 'auto' ? 'Not needed for MailCare.' : null)}
      {login && field('username', 'Login email', 'Only if the server asks for a login (MAILCARE_AUTH); leave empty otherwise.')}
      {field(
        'token',
        login ? 'Password' : draft.id ? 'Access token (leave empty to keep the stored one)' : 'Access token',
        null,
        'password',
      )}
      {field('name', 'Name', 'Optional: shown in the account switcher.')}
      {field('addressPattern', withKey('Fresh addresses', 'loop.new-address'), 'Such as qa+{random}@your-domain, or just the domain. Empty: the domain of the newest email.')}
      {!encryptionAvailable && (
        <label className="check warning">
          <input
            type="checkbox"
            checked={draft.allowPlaintextToken}
            onChange={(e) => changeAccountDraft({ allowPlaintextToken: e.target.checked })}
          />
          This system has no keyring. Ask to store the token unencrypted on disk (you will be asked to confirm)? Otherwise it
          is kept for this session only.
        </label>
      )}
      <div className="form-actions">
        <button type="button" disabled={busy} onClick={() => void testAccount()}>
          Test connection
        </button>
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Save'}
        </button>
        {offerSaveAnyway && (
          <button type="button" disabled={busy} onClick={() => void saveAccount(true)}>
            Save anyway
          </button>
        )}
        {draft.id && (
          <button type="button" onClick={() => editAccount(null)}>
            New account instead
          </button>
        )}
      </div>
    </form>
  );
}

export function SettingsView() {
  // Loaded when first opened (App.tsx): once here, the focus comes to the view, never <body>.
  useEffect(() => keepFocus(), []);
  const accounts = useStore((s) => s.accounts);
  const settings = useStore((s) => s.settings);
  const appInfo = useStore((s) => s.appInfo);
  const { switchAccount, removeAccount, editAccount, updateSettings } = useStore.getState();
  return (
    <div className="settings">
      <section aria-label="Accounts">
        <h2>Accounts</h2>
        {accounts?.accounts.length === 0 && <p>No account yet: the app shows the built-in demo service.</p>}
        <ul className="account-list">
          <li>
            <span>
              <strong>Demo</strong> — the built-in service with sample mail
              {accounts?.demo && <span className="badge">active</span>}
            </span>
            {!accounts?.demo && (
              <button type="button" onClick={() => void switchAccount(null)}>
                Use the demo
              </button>
            )}
          </li>
          {accounts?.accounts.map((a) => (
            <li key={a.id}>
              <span>
                <strong>{a.name}</strong> — {a.baseUrl}
                {a.teamId ? ` · team ${a.teamId}` : ''} · {FLAVOR_RECORDS[a.flavor].label}
                {a.id === accounts.activeId && <span className="badge">active</span>}
                {!a.hasToken && <span className="badge error">no token</span>}
                {a.tokenStorage === 'plaintext' && <span className="badge warning">token stored unencrypted</span>}
                {a.transport === 'clear' && (
                  <span className="badge error" title="This account uses plain http://: the token and mail cross the network unencrypted.">
                    not encrypted (http)
                  </span>
                )}
                {a.tokenStorage === 'session-only' && <span className="badge warning">token kept for this session only</span>}
              </span>
              {a.id !== accounts.activeId && (
                <button type="button" onClick={() => void switchAccount(a.id)}>
                  Switch
                </button>
              )}
              <button type="button" onClick={() => editAccount(a.id)}>
                Edit
              </button>
              <button type="button" onClick={() => window.confirm(`Remove "${a.name}"?`) && void removeAccount(a.id)}>
                Remove
              </button>
            </li>
          ))}
        </ul>
        <AccountForm />
      </section>
      <CatcherSettings />
      <section aria-label="Preferences">
        <h2>Preferences</h2>
        <label>
          Emails per page
          <select value={settings.pageSize} onChange={(e) => void updateSettings({ pageSize: Number(e.target.value) })}>
            {[10, 25, 50, 100].map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label>
          Theme
          <select value={settings.theme} onChange={(e) => void updateSettings({ theme: e.target.value as (typeof THEMES)[number] })}>
            {THEMES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label>
          List density
          <select value={settings.density} onChange={(e) => void updateSettings({ density: e.target.value as (typeof DENSITIES)[number] })}>
            <option value="compact">Compact: one line an email</option>
            <option value="comfortable">Comfortable: two lines an email</option>
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={settings.notifyNewMail} onChange={(e) => void updateSettings({ notifyNewMail: e.target.checked })} />
          Desktop notification when new mail arrives (with its code, and a button to copy it)
        </label>
        <ShortcutSetting />
        <SpamdSetting />
        <label>
          After deleting the open email, show
          <select value={settings.afterDelete} onChange={(e) => void updateSettings({ afterDelete: e.target.value as Settings['afterDelete'] })}>
            <option value="next">the next email</option>
            <option value="previous">the previous email</option>
            <option value="list">the list</option>
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={settings.confirmDelete} onChange={(e) => void updateSettings({ confirmDelete: e.target.checked })} />
          Ask before deleting an email (Undo is always there for 5 seconds)
        </label>
        {appInfo && (
          <p className="about">
            {appInfo.name} {appInfo.version} on {appInfo.platform}
          </p>
        )}
      </section>
      <KeymapEditor />
    </div>
  );
}
