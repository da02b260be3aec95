import type { FormEvent } from 'react';
import { THEMES } from '../../../../shared/domain/settings.ts';
import { ErrorBanner } from '../../ErrorBanner.tsx';
import { useStore } from '../../store.ts';
import type { AccountDraft } from './slice.ts';

function AccountForm() {
  const draft = useStore((s) => s.accountDraft);
  const errors = useStore((s) => s.accountErrors);
  const error = useStore((s) => s.accountError);
  const result = useStore((s) => s.connectionResult);
  const busy = useStore((s) => s.busy);
  const encryptionAvailable = useStore((s) => s.accounts?.encryptionAvailable ?? true);
  const { changeAccountDraft, saveAccount, testAccount, editAccount } = useStore.getState();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void saveAccount();
  };
  const field = (name: keyof AccountDraft & string, label: string, placeholder: string, type = 'text') => (
    <label>
      {label}
      <input
        name={name}
        type={type}
        value={String(draft[name] ?? '')}
        placeholder={placeholder}
        autoComplete="off"
        aria-invalid={Boolean(errors[name])}
        onChange={(e) => changeAccountDraft({ [name]: e.target.value } as Partial<AccountDraft>)}
      />
      {errors[name] && (
        <span className="field-error" role="alert">
          {errors[name]!.join(' ')}
        </span>
      )}
    </label>
  );

  return (
    <form className="account-form" onSubmit={submit} aria-label="Account">
      <h3>{draft.id ? 'Edit account' : 'Connect an account'}</h3>
      {error && <ErrorBanner error={error} />}
      {result && (
        <p className="ok" role="status">
          {result}
        </p>
      )}
      {field('name', 'Name', 'Acme support')}
      {field('baseUrl', 'Server address', 'https://mail.example.com')}
      {field('teamId', 'Team id', 'team id')}
      {field('token', draft.id ? 'Access token (leave empty to keep the stored one)' : 'Access token', 'token', 'password')}
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
          Save
        </button>
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
          {accounts?.accounts.map((a) => (
            <li key={a.id}>
              <span>
                <strong>{a.name}</strong> — {a.baseUrl} · team {a.teamId}
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
        <label className="check">
          <input type="checkbox" checked={settings.confirmDelete} onChange={(e) => void updateSettings({ confirmDelete: e.target.checked })} />
          Ask before deleting an email
        </label>
        {appInfo && (
          <p className="about">
            {appInfo.name} {appInfo.version} on {appInfo.platform}
          </p>
        )}
      </section>
    </div>
  );
}
