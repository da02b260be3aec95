import { useEffect, useState } from 'react';
import { useStore } from '../../store.ts';
import { COMMANDS } from '../commands/all.ts';
import { bindingClash, bindingsOf, chordOf, displayBinding, MODIFIER_KEYS, type Keymap } from '../commands/registry.ts';

/**
 * Rebinding a key: Change, then press the new key (Esc cancels). A key another
 * command has where this one works is refused, naming that command; Reset
 * gives the default back. Saved in main's settings with the rest.
 */
export function KeymapEditor() {
  const keymap = useStore((s) => s.settings.keymap);
  const mac = useStore((s) => s.appInfo?.platform === 'darwin');
  const updateSettings = useStore((s) => s.updateSettings);
  const [capturing, setCapturing] = useState<string | null>(null);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    if (!capturing) return;
    const command = COMMANDS.find((c) => c.id === capturing)!;
    const onKey = (event: KeyboardEvent) => {
      if (MODIFIER_KEYS.has(event.key)) return;
      // The capture takes the key before the app's own dispatcher sees it.
      event.preventDefault();
      event.stopImmediatePropagation();
      setCapturing(null);
      if (event.key === 'Escape') {
        setMessage(null);
        return;
      }
      const chord = chordOf(event);
      const other = bindingClash(COMMANDS, keymap, command.id, chord);
      if (other) {
        setMessage(`${displayBinding(chord, mac)} is already “${other.title}” there: choose another key.`);
        return;
      }
      setMessage(`“${command.title}” is now ${displayBinding(chord, mac)}.`);
      void updateSettings({ keymap: { ...keymap, [command.id]: [chord] } });
    };
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [capturing, keymap, mac, updateSettings]);

  const reset = (id: string) => {
    const { [id]: _dropped, ...rest }: Keymap = keymap;
    void updateSettings({ keymap: rest });
    setMessage(null);
  };

  return (
    <section aria-label="Keyboard shortcuts">
      <h2>Keyboard shortcuts</h2>
      <p className="hint">Change a key: press Change, then the key you want. Esc cancels.</p>
      {message && (
        <p role="status" className="keymap-message">
          {message}
        </p>
      )}
      <table className="keymap">
        <tbody>
          {COMMANDS.map((command) => {
            const bindings = bindingsOf(command, keymap);
            const changed = Object.hasOwn(keymap, command.id);
            return (
              <tr key={command.id}>
                <td>{command.title}</td>
                <td>{capturing === command.id ? <em>Press a key…</em> : bindings.map((binding) => <kbd key={binding}>{displayBinding(binding, mac)}</kbd>)}</td>
                <td>
                  <button type="button" aria-label={`Change the key for ${command.title}`} onClick={() => setCapturing(command.id)}>
                    Change
                  </button>
                  {changed && (
                    <button type="button" aria-label={`Reset the key for ${command.title}`} onClick={() => reset(command.id)}>
                      Reset
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
