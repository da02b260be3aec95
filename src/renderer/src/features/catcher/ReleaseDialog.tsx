import { useState, type FormEvent } from 'react';
import { parseRecipients } from '../../../../shared/domain/relay.ts';
import { Modal } from '../../Modal.tsx';
import { useStore } from '../../store.ts';
import { FormProblem } from './form-parts.tsx';

/** Release: the open email sent on to a real inbox through the user's relay, to addresses on the allowlist. */
export function ReleaseDialog() {
  const emailId = useStore((s) => s.releaseFor);
  if (emailId === null) return null;
  return <ReleaseForm emailId={emailId} />;
}

function ReleaseForm({ emailId }: { emailId: string }) {
  const relay = useStore((s) => s.accounts?.catcher.relay);
  const subject = useStore((s) => s.list?.data.find((e) => e.id === emailId)?.subject ?? '');
  const lastTo = useStore((s) => s.lastReleaseTo);
  const close = useStore((s) => s.closeRelease);
  const release = useStore((s) => s.releaseEmail);
  const setView = useStore((s) => s.setView);
  const allowlist = relay?.settings.allowlist ?? [];
  const [to, setTo] = useState(lastTo || (allowlist.find((entry) => !entry.includes('*') && !entry.startsWith('@')) ?? ''));
  const [problem, setProblem] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    const recipients = parseRecipients(to);
    if (typeof recipients === 'string') return setProblem(recipients);
    setSending(true);
    setProblem(null);
    // A failure stays in the dialog with what was typed; a success closes it and says the relay's answer.
    const failed = await release(emailId, recipients);
    setSending(false);
    if (failed !== null) setProblem(failed);
  };

  if (!relay || relay.settings.host === '') {
    return (
      <Modal label="Send to a real inbox" onClose={close}>
        <p>No relay is set yet: tell Inbox Desk which SMTP server to send through, and who may receive.</p>
        <div className="form-actions">
          <button
            type="button"
            onClick={() => {
              close();
              setView('settings');
            }}
          >
            Open Settings
          </button>
        </div>
      </Modal>
    );
  }
  return (
    <Modal label="Send to a real inbox" onClose={close}>
      <form className="release-form" onSubmit={(e) => void send(e)}>
        <p className="hint">
          “{subject || '(no subject)'}”, its exact bytes, through {relay.settings.host}:{relay.settings.port}. Only {allowlist.join(', ') || 'no one yet'} may receive.
        </p>
        <label>
          Send to
          <input value={to} autoComplete="off" spellCheck={false} onChange={(e) => setTo(e.target.value)} />
        </label>
        <FormProblem problem={problem} />
        <div className="form-actions">
          <button type="submit" disabled={sending}>
            {sending ? 'Sending…' : 'Send'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
