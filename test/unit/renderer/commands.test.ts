/**
 * The command registry (features/commands): every command reachable, no key
 * doing two things in one context, and the dispatcher running, for every key
 * the help shows, the command it is shown for.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/renderer/src/features/commands/all.ts';
import { applies, bindingClash, chordOf, clashes, resolveKey, type Command, type Context, type Keymap } from '../../../src/renderer/src/features/commands/registry.ts';

const inbox: Context = { view: 'inbox', readerOpen: false, formOpen: false, inField: false, onControl: false, modal: false };
const reading: Context = { ...inbox, readerOpen: true };
const ruleList: Context = { ...inbox, view: 'automations' };

/** The command a sequence of chords runs (or null), as the dispatcher steps through them. */
function commandFor(chords: string[], context: Context, keymap: Keymap = {}): string | null {
  let pending: string | null = null;
  let ran: string | null = null;
  for (const chord of chords) {
    const result = resolveKey(COMMANDS, keymap, pending, chord, context);
    pending = result && 'pending' in result ? result.pending : null;
    ran = result && 'run' in result ? result.run.id : null;
  }
  return ran;
}

describe('the command registry', () => {
  it('gives every command a key or a palette entry, and ids that are unique', () => {
    expect(COMMANDS.filter((command) => command.keys.length === 0 && command.hiddenFromPalette).map((c) => c.id)).toEqual([]);
    expect(new Set(COMMANDS.map((c) => c.id)).size).toBe(COMMANDS.length);
  });

  it('has no key that two commands share in one context, and no binding that starts another there', () => {
    expect(clashes(COMMANDS)).toEqual([]);
  });

  it('would catch a clash: two commands on j in the inbox, or a binding that is the start of another', () => {
    const extra: Command = { id: 'test.clash', title: 'x', group: 'Inbox', keys: ['j'], when: (c) => c.view === 'inbox', run: () => undefined };
    expect(clashes([...COMMANDS, extra]).map((c) => c.binding)).toContain('j');
    const prefix: Command = { id: 'test.prefix', title: 'y', group: 'Inbox', keys: ['g'], run: () => undefined };
    expect(clashes([...COMMANDS, prefix]).some((c) => c.binding.startsWith('g (before g '))).toBe(true);
  });

  it('runs, for every key the help shows, the command it shows it for, wherever that command applies', () => {
    // The contexts a user is in: the list, the reader, the rules, a rule's form, a text field, a dialog.
    const contexts: Context[] = [inbox, reading, ruleList, { ...ruleList, formOpen: true }, { ...reading, inField: true }, { ...inbox, modal: true }];
    let checked = 0;
    for (const command of COMMANDS) {
      for (const binding of command.keys) {
        for (const context of contexts.filter((c) => applies(command, c))) {
          expect(commandFor(binding.split(' '), context), `${binding} for ${command.id}`).toBe(command.id);
          checked += 1;
        }
      }
    }
    // The registry's commands whose keys apply somewhere without the store's say-so: most of them.
    expect(checked).toBeGreaterThan(100);
    expect(commandFor(['g', 'x'], inbox)).toBeNull();
  });

  it('keeps keys out of fields, buttons and dialogs, but for Esc and the Mod keys', () => {
    expect(commandFor(['j'], { ...inbox, inField: true })).toBeNull();
    expect(commandFor(['Space'], { ...reading, inField: true })).toBeNull();
    expect(commandFor(['Escape'], { ...inbox, inField: true })).toBe('app.close');
    expect(commandFor(['Enter'], { ...inbox, onControl: true })).toBeNull();
    expect(commandFor(['j'], { ...inbox, modal: true })).toBeNull();
    expect(commandFor(['Mod+R'], inbox)).toBeNull();
  });

  it('gives the list keys to the rule list while no rule is open', () => {
    expect(commandFor(['j'], ruleList)).toBe('rules.next');
    expect(commandFor(['Enter'], ruleList)).toBe('rules.edit');
    expect(commandFor(['z'], ruleList)).toBe('rules.undo');
    expect(commandFor(['/'], ruleList)).toBe('rules.filter');
    expect(commandFor(['j'], { ...ruleList, formOpen: true })).toBeNull();
  });

  it('follows the user’s keymap, and refuses a key another command has there', () => {
    const keymap: Keymap = { 'inbox.star': ['Y'] };
    expect(commandFor(['Y'], inbox, keymap)).toBe('inbox.star');
    expect(commandFor(['s'], inbox, keymap)).toBeNull();
    expect(bindingClash(COMMANDS, {}, 'inbox.star', 'j')?.id).toBe('inbox.next');
    expect(bindingClash(COMMANDS, {}, 'inbox.star', 'Y')).toBeNull();
    // Another view's key is free: j stars nothing in the rule list, where j is the rule list's.
    expect(bindingClash(COMMANDS, {}, 'rules.new', 'k')?.id).toBe('rules.previous');
  });

  it('reads a key event as a chord', () => {
    const event = (key: string, extra: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean; shiftKey: boolean }> = {}) => ({ key, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...extra });
    expect(chordOf(event('j'))).toBe('j');
    expect(chordOf(event('J', { shiftKey: true }))).toBe('J');
    expect(chordOf(event('#', { shiftKey: true }))).toBe('#');
    expect(chordOf(event(' '))).toBe('Space');
    expect(chordOf(event(' ', { shiftKey: true }))).toBe('Shift+Space');
    expect(chordOf(event('k', { ctrlKey: true }))).toBe('Mod+K');
    expect(chordOf(event('p', { metaKey: true }))).toBe('Mod+P');
    expect(chordOf(event('ArrowDown'))).toBe('ArrowDown');
  });

  it('never fires a key that types in a text field, whatever it is rebound to; Esc and Ctrl+K still work there', () => {
    const typing: Context = { ...inbox, inField: true };
    // Close rebound to a letter: q in the search box types q.
    expect(commandFor(['q'], typing, { 'app.close': ['q'] })).toBeNull();
    expect(commandFor(['q'], inbox, { 'app.close': ['q'] })).toBe('app.close');
    expect(commandFor(['Escape'], typing)).toBe('app.close');
    expect(commandFor(['Mod+K'], typing)).toBe('app.palette');
  });
});

