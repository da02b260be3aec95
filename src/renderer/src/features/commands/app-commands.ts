import { useStore } from '../../store.ts';
import { focusHome, inTextField } from './focus.ts';
import type { Command } from './registry.ts';
import { BENCH_CHECKS, type CheckId } from '../qa/checks.ts';

const s = () => useStore.getState();

/** The check whose report shows for the open email, the last in the reader's order (checks.ts). */
const openCheck = (state: ReturnType<typeof s>): CheckId | null =>
  [...BENCH_CHECKS].reverse().find((check) => state.checks[check.id]?.id === state.openId && state.openId !== null)?.id ?? null;

/** Esc does what the help says in one press: leave the field, else close the form, the check's report, the email. */
function close(): void {
  const state = s();
  const active = document.activeElement;
  if (state.shortcutsOpen) state.toggleShortcuts(false);
  else if (inTextField(active)) {
    (active as HTMLElement).blur();
    focusHome();
  } else if (state.editingId) state.cancelEdit();
  else if (openCheck(state)) {
    // A check's report closes one step at a time, the last one shown first: its source line, then the report.
    const check = openCheck(state)!;
    if (state.checks[check]!.line !== null) void state.showSourceLine(null, check);
    else state.closeCheck(check);
    focusHome();
  } else if (state.openId) {
    state.closeMessage();
    focusHome();
  }
}

export const APP_COMMANDS: Command[] = [
  { id: 'app.go-inbox', title: 'Go to the inbox', group: 'Going places', keys: ['g i'], run: () => s().setView('inbox') },
  { id: 'app.go-automations', title: 'Go to automations', group: 'Going places', keys: ['g a'], run: () => s().setView('automations') },
  { id: 'app.go-settings', title: 'Go to settings', group: 'Going places', keys: ['g s'], run: () => s().setView('settings') },
  { id: 'app.close', title: 'Close the email, or leave the field', group: 'Going places', keys: ['Escape'], inFields: true, run: close },
  { id: 'app.shortcuts', title: 'Show keyboard shortcuts', group: 'Going places', keys: ['?'], run: () => s().toggleShortcuts() },
  {
    id: 'app.palette',
    title: 'Command palette: every action by name',
    group: 'Going places',
    keys: ['Mod+K'],
    inFields: true,
    inModals: true,
    hiddenFromPalette: true,
    run: () => useStore.setState({ paletteOpen: !s().paletteOpen, shortcutsOpen: false }),
  },
];
