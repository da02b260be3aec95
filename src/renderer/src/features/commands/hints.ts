/**
 * Key hints ("Raw (3)", "Undo (z)") from the one registry and the user's
 * keymap, never typed by hand: a rebound key shows as rebound everywhere, an
 * unbound one shows none. The registry is bound in late (all.ts sets the
 * lookup) so that a store slice can ask without importing every feature's
 * commands, which import the store.
 */
type Lookup = (id: string) => string | null;
let lookup: Lookup = () => null;

/** all.ts, once the registry is whole. */
export function setHintLookup(next: Lookup): void {
  lookup = next;
}

/** The key a command has now, as help shows it ('3', 'Esc', '⌘P'), or null when it has none. */
export function keyHint(id: string): string | null {
  return lookup(id);
}

/** A label with its command's key after it: "Raw (3)", or just "Raw" when the key was unbound. */
export function withKey(label: string, id: string): string {
  const key = lookup(id);
  return key ? `${label} (${key})` : label;
}
