import { useState, type FormEvent } from 'react';
import { checkRelaySettings, type RelaySecurity, type RelaySettings } from '../../../../shared/domain/relay.ts';
import { ApplyOrUndo, FormProblem } from './form-parts.tsx';
import { useStore } from '../../store.ts';

interface Draft {
  host: string;
  port: string;
  security: RelaySecurity;
  user: string;
  password: string;
  allowlist: string;
  envelopeFrom: string;
}

const draftOf = (s: RelaySettings): Draft => ({ host: s.host, port: String(s.port), security: s.security, user: s.user, password: '', allowlist: s.allowlist.join('\n'), envelopeFrom: s.envelopeFrom });
const settingsOf = (d: Draft) => ({
  host: d.host,
  port: d.port.trim() === '' ? NaN : Number(d.port),
  security: d.security,
  user: d.user,
  allowlist: d.allowlist.split(/[\s,;]+/).filter(Boolean),
  envelopeFrom: d.envelopeFrom,
});

/** Settings -> This computer -> Send to a real inbox: the relay Release sends through, and who may receive. */
export function RelayForm({ relay }: { relay: { settings: RelaySettings; hasPassword: boolean; consented: boolean } }) {
  const updateRelay = useStore((s) => s.updateRelay);
  const [edited, setDraft] = useState<Draft | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const draft = edited ?? draftOf(relay.settings);
  const change = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });

  const apply = async (event: FormEvent) => {
    event.preventDefault();
    // The same checks main makes, so the problem shows in place and the typed text stays.
    const checked = checkRelaySettings(settingsOf(draft));
    if (typeof checked === 'string') return setProblem(checked);
    setProblem(null);
    if (await updateRelay(checked, draft.password === '' ? undefined : draft.password)) setDraft(null);
  };

  return (
    <form aria-label="Send to a real inbox" className="catcher-form relay-form" onSubmit={(e) => void apply(e)}>
      <h3>Send to a real inbox</h3>
      <p className="hint">
        To see a caught email in Gmail or Outlook: Release (the palette, or its key) sends its exact bytes on through your own SMTP server, only to the addresses below, and only when you ask. The first
        time, Inbox Desk asks you to allow the server.
      </p>
      <label>
        SMTP server (empty: release is off)
        <input value={draft.host} autoComplete="off" placeholder="smtp.gmail.com" onChange={(e) => change({ host: e.target.value })} />
      </label>
      <label>
        Port
        <input inputMode="numeric" value={draft.port} onChange={(e) => change({ port: e.target.value })} />
      </label>
      <label>
        Security
        <select value={draft.security} onChange={(e) => change({ security: e.target.value as RelaySecurity })}>
          <option value="starttls">STARTTLS (port 587)</option>
          <option value="tls">TLS from the start (port 465)</option>
          <option value="none">None (a server on this computer only)</option>
        </select>
      </label>
      <label>
        User (empty: no login)
        <input value={draft.user} autoComplete="off" onChange={(e) => change({ user: e.target.value })} />
      </label>
      {draft.user.trim() !== '' && (
        <label>
          Password{relay.hasPassword ? ' (set; type to change it)' : ' (sealed by your system’s keyring)'}
          <input type="password" value={draft.password} autoComplete="new-password" onChange={(e) => change({ password: e.target.value })} />
        </label>
      )}
      <label>
        Who may receive (addresses or @domain, one per line)
        <textarea rows={3} value={draft.allowlist} placeholder={'me@gmail.com\n@mycompany.com'} onChange={(e) => change({ allowlist: e.target.value })} />
      </label>
      <label>
        Envelope sender, if the server demands its own (empty: the email’s sender)
        <input value={draft.envelopeFrom} autoComplete="off" onChange={(e) => change({ envelopeFrom: e.target.value })} />
      </label>
      {relay.settings.host !== '' && <p className="hint">{relay.consented ? `You allowed ${relay.settings.host}.` : `Inbox Desk will ask you to allow ${relay.settings.host} the first time.`}</p>}
      <FormProblem problem={problem} />
      <ApplyOrUndo apply="Save relay" onUndo={() => setDraft(null)} />
    </form>
  );
}
