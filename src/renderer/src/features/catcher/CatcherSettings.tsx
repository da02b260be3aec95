import { useState, type FormEvent } from 'react';
import { CATCHER_ID, isLoopbackHost, type CatcherState } from '../../../../shared/domain/catcher.ts';
import { useKeyHints } from '../commands/use-hints.ts';
import { ApplyOrUndo, FormProblem } from './form-parts.tsx';
import { useStore } from '../../store.ts';
import { ApiForTests } from './ApiForTests.tsx';
import { RelayForm } from './RelayForm.tsx';
import { ChaosForm } from './ChaosForm.tsx';
import { CHAOS_OFF } from '../../../../shared/domain/chaos.ts';
import { SmtpInstructions } from './SmtpInstructions.tsx';

const STATUS: Record<CatcherState['status'], string> = {
  off: 'Off: mail sent to this computer is not caught.',
  starting: 'Starting…',
  listening: 'Catching mail',
  failed: 'Not catching mail',
};

interface Draft {
  port: string;
  allInterfaces: boolean;
  tls: boolean;
  tlsPort: string;
  login: 'any' | 'off' | 'user';
  user: string;
  password: string;
  requireAuth: boolean;
  keep: string;
  keepDays: string;
  addressPattern: string;
  apiPort: string;
  maxRecipients: string;
}

function draftOf(state: CatcherState): Draft {
  const { settings } = state;
  return {
    port: String(settings.port),
    allInterfaces: !isLoopbackHost(settings.host),
    tls: settings.tlsPort !== null,
    tlsPort: String(settings.tlsPort ?? 1465),
    login: settings.auth === 'any' || settings.auth === 'off' ? settings.auth : 'user',
    user: typeof settings.auth === 'object' ? settings.auth.user : '',
    password: '',
    requireAuth: settings.requireAuth,
    keep: settings.keep === null ? '' : String(settings.keep),
    keepDays: settings.keepDays === null ? '' : String(settings.keepDays),
    addressPattern: settings.addressPattern,
    apiPort: settings.apiPort === null ? '' : String(settings.apiPort),
    maxRecipients: String(settings.maxRecipients),
  };
}

const whole = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null);

/** Settings: "This computer", the catcher. On or off, where it listens, how it logs in, what it keeps, and what to paste into an app. */
export function CatcherSettings() {
  const state = useStore((s) => s.accounts?.catcher);
  const active = useStore((s) => s.accounts?.activeId === CATCHER_ID);
  const { updateCatcher, switchAccount } = useStore.getState();
  const { withKey } = useKeyHints();
  // Null while nothing is changed: the form shows the settings as they are.
  const [edited, setDraft] = useState<Draft | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  if (!state) return null;
  const draft = edited ?? draftOf(state);
  const change = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });

  const apply = async (event: FormEvent) => {
    event.preventDefault();
    const port = whole(draft.port);
    const tlsPort = draft.tls ? whole(draft.tlsPort) : null;
    if (port === null || port < 1 || port > 65535) return setProblem('The port is a number from 1 to 65535 (1025 is what catchers use).');
    if (draft.tls && (tlsPort === null || tlsPort < 1 || tlsPort > 65535 || tlsPort === port)) return setProblem('The TLS port is another number from 1 to 65535.');
    // Sent only when changed: a port the form did not touch stays as main has it.
    const apiPortChanged = draft.apiPort.trim() !== draftOf(state).apiPort;
    const apiPort = draft.apiPort.trim() === '' ? null : whole(draft.apiPort);
    if (apiPortChanged && draft.apiPort.trim() !== '' && (apiPort === null || apiPort < 1 || apiPort > 65535 || apiPort === port || apiPort === tlsPort)) {
      return setProblem('The API port is another number from 1 to 65535 (8025 is Mailpit’s), or empty to turn the API off.');
    }
    const maxRecipients = whole(draft.maxRecipients);
    if (maxRecipients === null || maxRecipients < 100 || maxRecipients > 100_000) return setProblem('Recipients per message: a number from 100 (what RFC 5321 asks a server to take) to 100,000.');
    if (draft.login === 'user' && !draft.user.trim()) return setProblem('Give the user your app logs in as.');
    if (draft.login === 'user' && !draft.password && !state.hasPassword) return setProblem('Give the password your app logs in with.');
    setProblem(null);
    const ok = await updateCatcher({
      port,
      host: draft.allInterfaces ? '0.0.0.0' : '127.0.0.1',
      tlsPort,
      auth: draft.login === 'user' ? { user: draft.user.trim() } : draft.login,
      ...(draft.login === 'user' && draft.password ? { password: draft.password } : {}),
      requireAuth: draft.requireAuth,
      keep: whole(draft.keep),
      keepDays: whole(draft.keepDays),
      addressPattern: draft.addressPattern.trim() || state.settings.addressPattern,
      ...(apiPortChanged ? { apiPort } : {}),
      maxRecipients,
    });
    if (ok) setDraft(null);
  };

  const listening = state.smtp;
  return (
    <section aria-label="This computer" className="catcher-settings">
      <h2>This computer</h2>
      <p>
        Catches the mail your own software sends, as Mailpit does: point its SMTP at Inbox Desk and every message lands here, and goes nowhere else.
      </p>
      <label className="inline">
        <input type="checkbox" checked={state.settings.enabled} onChange={(e) => void updateCatcher({ enabled: e.target.checked })} />
        Catch mail sent to this computer
      </label>
      <p role="status" className={`catcher-status ${state.status}`}>
        <strong>{STATUS[state.status]}</strong>
        {listening && ` on ${listening.host}:${listening.port}${listening.tlsPort ? ` (TLS on ${listening.tlsPort})` : ''}.`}
        {state.error && ` ${state.error}`}
        {state.status === 'listening' && !active && (
          <>
            {' '}
            <button type="button" onClick={() => void switchAccount(CATCHER_ID)}>
              Show its mail
            </button>
          </>
        )}
      </p>
      <SmtpInstructions state={state} />
      <ApiForTests state={state} />
      <form aria-label="Catcher settings" onSubmit={(e) => void apply(e)} className="catcher-form">
        <label>
          SMTP port
          <input inputMode="numeric" value={draft.port} onChange={(e) => change({ port: e.target.value })} />
        </label>
        <label className="inline">
          <input type="checkbox" checked={draft.allInterfaces} onChange={(e) => change({ allInterfaces: e.target.checked })} />
          Also take mail from other computers (every network interface; asks first)
        </label>
        <label className="inline">
          <input type="checkbox" checked={draft.tls} onChange={(e) => change({ tls: e.target.checked })} />
          A port that speaks TLS from the start (SMTPS)
        </label>
        {draft.tls && (
          <label>
            TLS port
            <input inputMode="numeric" value={draft.tlsPort} onChange={(e) => change({ tlsPort: e.target.value })} />
          </label>
        )}
        <label>
          Login (SMTP AUTH)
          <select value={draft.login} onChange={(e) => change({ login: e.target.value as Draft['login'] })}>
            <option value="any">Any user and password</option>
            <option value="off">None offered</option>
            <option value="user">Only this user and password</option>
          </select>
        </label>
        {draft.login === 'user' && (
          <>
            <label>
              User
              <input value={draft.user} autoComplete="off" onChange={(e) => change({ user: e.target.value })} />
            </label>
            <label>
              Password{state.hasPassword ? ' (set; type to change it)' : ''}
              <input type="password" value={draft.password} autoComplete="new-password" onChange={(e) => change({ password: e.target.value })} />
            </label>
          </>
        )}
        {draft.login !== 'off' && (
          <label className="inline">
            <input type="checkbox" checked={draft.requireAuth} onChange={(e) => change({ requireAuth: e.target.checked })} />
            Refuse mail from apps that do not log in
          </label>
        )}
        <label>
          Keep the newest (emails; empty keeps all)
          <input inputMode="numeric" value={draft.keep} onChange={(e) => change({ keep: e.target.value })} />
        </label>
        <label>
          Delete after (days; empty keeps them)
          <input inputMode="numeric" value={draft.keepDays} onChange={(e) => change({ keepDays: e.target.value })} />
        </label>
        <label>
          Recipients per message (the rest are answered 452)
          <input inputMode="numeric" value={draft.maxRecipients} onChange={(e) => change({ maxRecipients: e.target.value })} />
        </label>
        <label>
          API port for tests and agents (on 127.0.0.1; empty turns it off)
          <input inputMode="numeric" value={draft.apiPort} onChange={(e) => change({ apiPort: e.target.value })} />
        </label>
        <label>
          {withKey('Fresh addresses', 'loop.new-address')} look like
          <input value={draft.addressPattern} onChange={(e) => change({ addressPattern: e.target.value })} />
        </label>
        <FormProblem problem={problem} />
        <ApplyOrUndo apply="Apply" onUndo={() => setDraft(null)} />
      </form>
      {state.status === 'listening' && <ChaosForm chaos={state.chaos ?? CHAOS_OFF} />}
      {state.relay && <RelayForm relay={state.relay} />}
    </section>
  );
}
