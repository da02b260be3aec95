import { useMemo, useState } from 'react';
import { Modal } from '../../Modal.tsx';
import { useStore } from '../../store.ts';
import { run } from '../keyboard/useKeyboard.ts';
import { COMMANDS, type Action } from '../keyboard/shortcuts.ts';
import { rank } from './fuzzy.ts';

interface Command {
  id: string;
  label: string;
  keys?: string;
  perform: () => void;
}

/** Every action (from the keymap, with its key), every view and account, fuzzy matched. */
export function CommandPalette() {
  const open = useStore((s) => s.paletteOpen);
  const accounts = useStore((s) => s.accounts);
  const [query, setQuery] = useState('');
  const [index, setIndex] = useState(0);
  const close = () => {
    useStore.setState({ paletteOpen: false });
    setQuery('');
    setIndex(0);
  };
  const commands = useMemo<Command[]>(() => {
    // One entry per action, running exactly that action (COMMANDS: no entry stands for a group of keys).
    const actions = (Object.entries(COMMANDS) as [Action, { label: string; keys: string }][]).map(([action, { label, keys }]) => ({
      id: action,
      label,
      keys,
      perform: () => run(action),
    }));
    const switching: Command[] = [
      { id: 'account-demo', label: 'Switch account: Demo (built-in)', perform: () => void useStore.getState().switchAccount(null) },
      ...(accounts?.accounts ?? []).map((a) => ({
        id: `account-${a.id}`,
        label: `Switch account: ${a.name}`,
        perform: () => void useStore.getState().switchAccount(a.id),
      })),
    ];
    return [...actions, ...switching];
  }, [accounts]);
  const matches = rank(commands, query, (c) => `${c.label} ${c.keys ?? ''}`);
  if (!open) return null;
  const choose = (command: Command | undefined) => {
    if (!command) return;
    close();
    // After the modal is gone, so the action's focus changes stick.
    requestAnimationFrame(() => command.perform());
  };
  return (
    <Modal label="Command palette" onClose={close} className="palette">
      <input
        type="text"
        role="combobox"
        aria-label="Command"
        aria-expanded="true"
        aria-controls="palette-results"
        aria-activedescendant={matches[index] ? `palette-${matches[index].id}` : undefined}
        placeholder="Type a command…"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setIndex(0);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') setIndex((i) => Math.min(i + 1, matches.length - 1));
          else if (e.key === 'ArrowUp') setIndex((i) => Math.max(i - 1, 0));
          else if (e.key === 'Enter') choose(matches[index]);
          else return;
          e.preventDefault();
        }}
      />
      <ul id="palette-results" role="listbox" aria-label="Commands">
        {matches.map((command, i) => (
          <li
            key={command.id}
            id={`palette-${command.id}`}
            role="option"
            aria-selected={i === index}
            onMouseEnter={() => setIndex(i)}
            onClick={() => choose(command)}
          >
            <span>{command.label}</span>
            {command.keys && <kbd>{command.keys}</kbd>}
          </li>
        ))}
        {matches.length === 0 && <li className="empty">No command matches “{query}”.</li>}
      </ul>
    </Modal>
  );
}
