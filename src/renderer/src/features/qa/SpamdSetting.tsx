import { useState } from 'react';
import { spamdAddress } from '../../../../shared/domain/spamd-address.ts';
import { useStore } from '../../store.ts';

/** Where SpamAssassin's spamd listens, for S: off until set. */
export function SpamdSetting() {
  const saved = useStore((s) => s.settings.spamd);
  // A new saved value starts a fresh form.
  return <SpamdForm key={saved} saved={saved} />;
}

function SpamdForm({ saved }: { saved: string }) {
  const [draft, setDraft] = useState(saved);
  const malformed = draft.trim() !== '' && spamdAddress(draft) === null;
  return (
    <form
      className="spamd-setting"
      aria-label="Spam score"
      onSubmit={(event) => {
        event.preventDefault();
        if (!malformed) void useStore.getState().updateSettings({ spamd: draft.trim() });
      }}
    >
      <label>
        SpamAssassin’s spamd for spam scores (S)
        <input value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="127.0.0.1:783 (empty: off)" aria-invalid={malformed} spellCheck={false} />
      </label>
      <button type="submit" disabled={malformed || draft.trim() === saved}>
        Apply
      </button>
      <p role="status" className={malformed ? 'error' : 'hint'}>
        {malformed ? 'Write host:port, such as 127.0.0.1:783.' : saved ? `S asks spamd at ${saved}.` : 'Off. Debian: apt install spamd, then 127.0.0.1:783.'}
      </p>
    </form>
  );
}
