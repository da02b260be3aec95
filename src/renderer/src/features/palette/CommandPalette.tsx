import { useMemo, useState } from 'react';
import { Modal } from '../../Modal.tsx';
import { useStore } from '../../store.ts';
import { COMMANDS } from '../commands/all.ts';
import { applies, bindingsOf, displayBinding, type Command as Registered, type Context } from '../commands/registry.ts';
import { keyContext } from '../commands/useKeyboard.ts';
import { withKey } from '../commands/hints.ts';
import { rank } from './fuzzy.ts';

interface Command {
  id: string;
  label: string;
  keys?: string;
  perform: () => void;
  /** Why it cannot run here and now (then it is listed dimmed, and Enter does nothing). */
  unavailable?: string;
  /** It runs on the selected email, opened first (a reader command from the list). */
  onSelected?: boolean;
}

/**
 * Where a command would run, said for the one that cannot run here: it needs
 * an open email, the inbox or Automations; else it is simply not for now (a
 * banner's key while there is no banner).
 */
function whyNot(command: Registered, context: Context): string {
  const inbox = { ...context, view: 'inbox' as const, inField: false, modal: false };
  if (!applies(command, { ...inbox, readerOpen: false }) && applies(command, { ...inbox, readerOpen: true })) return 'Open an email first';
  if (applies(command, inbox) || applies(command, { ...inbox, readerOpen: true })) return withKey('In the inbox', 'app.go-inbox');
  if (applies(command, { ...context, view: 'automations', readerOpen: false, formOpen: false, inField: false, modal: false })) return withKey('In Automations', 'app.go-automations');
  return 'Not available now';
}

/**
 * Every command (the registry, with its key as rebound) and every account,
 * matched by name. What cannot run here is listed dimmed with why; a reader
 * command runs on the selected email, opening it first.
 */
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
    const state = useStore.getState();
    const selected = state.view === 'inbox' && state.openId === null ? state.selectedId : null;
    const actions = COMMANDS.filter((command) => !command.hiddenFromPalette).map((command): Command => {
      const keys = bindingsOf(command, keymap)
        .map((binding) => displayBinding(binding, mac))
        .join(' / ');
      const base = { id: command.id, label: command.title, keys, perform: command.run };
      if (applies(command, context)) return base;
      if (selected !== null && applies(command, { ...context, readerOpen: true })) {
        // The list's selected email, opened, then the command: as if it had been open.
        return { ...base, onSelected: true, perform: () => void useStore.getState().openMessage(selected).then(() => command.run()) };
      }
      return { ...base, unavailable: whyNot(command, context) };
    });
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
  // Commands that run now first, then those that run on the selected email, then the dimmed: within each kind of match.
  const matches = rank(commands, query, (c) => c.label, (c) => (c.unavailable ? 0 : c.onSelected ? 1 : 2));
  if (!open) return null;
  const choose = (command: Command | undefined) => {
    if (!command || command.unavailable) return;
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
            aria-disabled={command.unavailable ? true : undefined}
            className={command.unavailable ? 'unavailable' : undefined}
            onMouseEnter={() => setIndex(i)}
            onClick={() => choose(command)}
          >
            <span>
              {command.label}
              {command.unavailable && <small className="why"> — {command.unavailable}</small>}
              {command.onSelected && <small className="why"> — on the selected email</small>}
            </span>
            {command.keys && <kbd>{command.keys}</kbd>}
          </li>
        ))}
        {matches.length === 0 && <li className="empty">No command matches “{query}”.</li>}
      </ul>
    </Modal>
  );
}
