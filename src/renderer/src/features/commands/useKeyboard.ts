import { useEffect } from 'react';
import { useStore } from '../../store.ts';
import { COMMANDS } from './all.ts';
import { inTextField, keepFocus } from './focus.ts';
import { chordOf, MODIFIER_KEYS, resolveKey, type Context } from './registry.ts';

/** The context a key is pressed in: the store's state and where focus is. */
export function keyContext(target: EventTarget | null): Context {
  const s = useStore.getState();
  return {
    view: s.view,
    readerOpen: s.openId !== null,
    formOpen: s.editingId !== null,
    inField: inTextField(target),
    onControl: target instanceof HTMLElement && target.closest('button, a, select') !== null,
    modal: s.shortcutsOpen || s.paletteOpen || s.attachmentChooserOpen || s.leaveGuard !== null || s.releaseFor !== null,
  };
}

/** One keydown listener for the whole app: each chord resolved against the registry and the user's keymap. */
export function useKeyboard(): void {
  useEffect(() => {
    let pending: string | null = null;
    const onKey = (event: KeyboardEvent) => {
      if (MODIFIER_KEYS.has(event.key)) return;
      const result = resolveKey(COMMANDS, useStore.getState().settings.keymap, pending, chordOf(event), keyContext(event.target));
      pending = result && 'pending' in result ? result.pending : null;
      if (!result) return;
      event.preventDefault();
      if ('run' in result) {
        result.run.run();
        keepFocus();
      }
    };
    window.addEventListener('keydown', onKey);
    // A control that goes away with the focus in it (a chip's ✕, a closed dialog) hands it back home.
    const onFocusOut = () => keepFocus();
    document.addEventListener('focusout', onFocusOut);
    // At launch, and after any change of state (a view, a list, a reader or a panel that went away with
    // the focus in it: Chromium sends no focusout for a removed element), focus goes home if nothing has it.
    const unsubscribe = useStore.subscribe(() => keepFocus());
    keepFocus();
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('focusout', onFocusOut);
      unsubscribe();
    };
  }, []);
}
