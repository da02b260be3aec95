/**
 * Every action of the app as a command, after VS Code's CommandsRegistry:
 * `{ id, title, keys, when, run }`. Each feature contributes its own list
 * (features/*\/commands.ts); the key dispatcher, the help overlay and the
 * palette all read the one registry (all.ts), so they cannot disagree, and a
 * user keymap (Settings) rebinds a command by its id. Pure: no DOM, no store.
 */

export type View = 'inbox' | 'automations' | 'settings';

/** What a command's `when` can ask: the app's state as far as keys care. */
export interface Context {
  view: View;
  /** An email is open in the reader. */
  readerOpen: boolean;
  /** A rule's form is open (automations). */
  formOpen: boolean;
  /** Focus is in a text field, a select or editable text: single keys type there. */
  inField: boolean;
  /** Focus is on a button, a link or a select: Enter and Space are theirs. */
  onControl: boolean;
  /** A dialog (help, palette, a question) has the keyboard. */
  modal: boolean;
}

export interface Command {
  /** `area.what`: the keymap and the palette know it by this. */
  id: string;
  title: string;
  /** Where it is listed in the help. */
  group: 'Inbox' | 'Reading' | 'Tester’s bench' | 'Rules' | 'Going places';
  /** Default bindings: one chord (`j`, `Shift+Space`, `Mod+P`) or two (`g i`). */
  keys: string[];
  /** Only while this holds; always when absent. Text fields and dialogs are handled apart (`inFields`, `inModals`). */
  when?: (context: Context) => boolean;
  /** Also while typing in a field (Esc, Mod+K, Mod+P). */
  inFields?: boolean;
  /** Also while a dialog is open (Mod+K toggles the palette). */
  inModals?: boolean;
  /** Not offered in the palette (a key that only makes sense as a key, such as an arrow). */
  hiddenFromPalette?: boolean;
  run: () => void;
}

/** The user's changes: a command id and the bindings it has instead of its defaults ([] unbinds it). */
export type Keymap = Record<string, string[]>;

/** Whether a command can run in this context. */
export function applies(command: Command, context: Context): boolean {
  if (context.inField && !command.inFields) return false;
  if (context.modal && !command.inModals) return false;
  return command.when ? command.when(context) : true;
}

export function bindingsOf(command: Command, keymap: Keymap): string[] {
  return Object.hasOwn(keymap, command.id) ? keymap[command.id]! : command.keys;
}

/** A key event as a chord: `j`, `J`, `#`, `Space`, `Shift+Space`, `Mod+K`, `Alt+x`. Printable keys carry their shift in the key itself. */
export function chordOf(event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }): string {
  const key = event.key === ' ' ? 'Space' : event.key.length === 1 && (event.ctrlKey || event.metaKey) ? event.key.toUpperCase() : event.key;
  const named = key.length > 1;
  return [event.ctrlKey || event.metaKey ? 'Mod' : '', event.altKey ? 'Alt' : '', event.shiftKey && named ? 'Shift' : '', key].filter(Boolean).join('+');
}

/** Keys that only modify: pressed alone they are no chord. */
export const MODIFIER_KEYS = new Set(['Shift', 'Control', 'Meta', 'Alt', 'AltGraph', 'CapsLock', 'Dead']);

/** How a binding reads in help: `⌘K` on macOS, `Ctrl+K` elsewhere; arrows and Esc as people write them. */
export function displayBinding(binding: string, mac: boolean): string {
  const names: Record<string, string> = { ArrowDown: '↓', ArrowUp: '↑', ArrowLeft: '←', ArrowRight: '→', Escape: 'Esc', PageDown: 'PgDn', PageUp: 'PgUp', Delete: 'Del' };
  return binding
    .split(' ')
    .map((chord) =>
      chord
        .split('+')
        .map((part) => (part === 'Mod' ? (mac ? '⌘' : 'Ctrl') : (names[part] ?? part)))
        .join(mac ? '' : '+')
        .replace(/^⌘\+?/, '⌘'),
    )
    .join(' ');
}

/**
 * The key dispatcher as a pure step: given the chords pressed so far (a
 * prefix such as `g`), the new chord, and the context, it says which command
 * runs, or that the chord starts a longer binding, or nothing.
 */
export function resolveKey(
  commands: readonly Command[],
  keymap: Keymap,
  pending: string | null,
  chord: string,
  context: Context,
): { run: Command } | { pending: string } | null {
  const typed = pending ? `${pending} ${chord}` : chord;
  let prefixOfLonger = false;
  for (const command of commands) {
    if (!applies(command, context)) continue;
    for (const binding of bindingsOf(command, keymap)) {
      // In a text field a key without Ctrl/⌘ or Alt types: a command that works there (Esc, ⌘K) does so
      // only by a binding that cannot be text, whatever a user rebinds it to ("q" for close types q).
      if (context.inField && typesText(binding)) continue;
      if (binding === typed) return { run: command };
      if (binding.startsWith(`${typed} `)) prefixOfLonger = true;
    }
  }
  // A chord that does not go on from the prefix ends it, as in Gmail (g then x does nothing).
  return prefixOfLonger ? { pending: typed } : null;
}

/** A binding a text field would take as typing: one printable character, or a sequence of them (not Escape, Enter, ⌘K, Alt+x). */
export function typesText(binding: string): boolean {
  return binding.split(' ').every((chord) => [...chord].length === 1 || chord === 'Space' || chord === 'Shift+Space');
}

/** Every context the app can be in, for the checks below. */
export function allContexts(): Context[] {
  const contexts: Context[] = [];
  for (const view of ['inbox', 'automations', 'settings'] as const)
    for (const readerOpen of [false, true])
      for (const formOpen of [false, true])
        for (const inField of [false, true])
          for (const onControl of [false, true]) for (const modal of [false, true]) contexts.push({ view, readerOpen, formOpen, inField, onControl, modal });
  return contexts;
}

export interface Clash {
  binding: string;
  commands: [string, string];
  context: Context;
}

/**
 * Two commands that one key would both run in some context, or a binding
 * that is the start of another there (so the longer one could never be typed).
 */
export function clashes(commands: readonly Command[], keymap: Keymap = {}): Clash[] {
  const found: Clash[] = [];
  const seen = new Set<string>();
  for (const context of allContexts()) {
    const active = commands.filter((command) => applies(command, context));
    const bound = active.flatMap((command) => bindingsOf(command, keymap).map((binding) => ({ binding, id: command.id })));
    for (const a of bound) {
      for (const b of bound) {
        if (a.id >= b.id && a.binding === b.binding) continue;
        if (a.id === b.id) continue;
        if (a.binding === b.binding || b.binding.startsWith(`${a.binding} `)) {
          const key = `${a.binding}|${a.id}|${b.id}`;
          if (seen.has(key)) continue;
          seen.add(key);
          found.push({ binding: a.binding === b.binding ? a.binding : `${a.binding} (before ${b.binding})`, commands: [a.id, b.id], context });
        }
      }
    }
  }
  return found;
}

/** Whether `binding` may be given to `id`: null, or the command it would clash with. */
export function bindingClash(commands: readonly Command[], keymap: Keymap, id: string, binding: string): Command | null {
  const next: Keymap = { ...keymap, [id]: [binding] };
  const clash = clashes(commands, next).find((c) => c.commands.includes(id));
  if (!clash) return null;
  const other = clash.commands[0] === id ? clash.commands[1] : clash.commands[0];
  return commands.find((command) => command.id === other) ?? null;
}
