import { useMemo, useState } from 'react';
import { Modal } from '../../Modal.tsx';
import { useStore } from '../../store.ts';
import { COMMANDS } from '../commands/all.ts';
import { applies, bindingsOf, displayBinding } from '../commands/registry.ts';
import { keyContext } from '../commands/useKeyboard.ts';
import { rank } from './fuzzy.ts';

interface Command {
  id: string;
  label: string;
  keys?: string;
  perform: () => void;
}

/** Every command that applies where the user is (the registry, with its key as rebound), every account, fuzzy matched. */
export function CommandPalette() {
  const open = useStore((s) => s.paletteOpen);
  const accounts = useStore((s) => s.accounts);
  const keymap = useStore((s) => s.settings.keymap);
  const mac = useStore((s) => s.appInfo?.platform === 'darwin');
  const [query, setQuery] = useState('');
  const [index, setIndex] = useState(0);
  const close = () => {
    useStore.setState({ paletteOpen: false });
    setQuery('');
    setIndex(0);
  };
  const commands = useMemo<Command[]>(() => {
    if (!open) return [];
    // Where the user was when the palette opened: its own dialog and field aside.
    const context = { ...keyContext(null), modal: false };
    const actions = COMMANDS.filter((command) => !command.hiddenFromPalette && applies(command, context)).map((command) => ({
      id: command.id,
      label: command.title,
      keys: bindingsOf(command, keymap)
        .map((binding) => displayBinding(binding, mac))
        .join(' / '),
      perform: command.run,
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
  }, [open, accounts, keymap, mac]);
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
        aria-activedescendant={matches[index] ? `palette-${matches[index].id.replace('.', '-')}` : undefined}
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
            id={`palette-${command.id.replace('.', '-')}`}
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
