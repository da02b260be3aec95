/** The one registry: every feature's commands, read by the keys, the help and the palette. */
import { RULE_COMMANDS } from '../automations/commands.ts';
import { INBOX_COMMANDS } from '../inbox/commands.ts';
import { READER_COMMANDS } from '../message/commands.ts';
import { QA_COMMANDS } from '../qa/commands.ts';
import { LOOP_COMMANDS } from '../loop/commands.ts';
import { CATCHER_COMMANDS } from '../catcher/commands.ts';
import { APP_COMMANDS } from './app-commands.ts';
import { setHintLookup } from './hints.ts';
import { bindingsOf, displayBinding, type Command } from './registry.ts';
import { useStore } from '../../store.ts';

export const COMMANDS: readonly Command[] = [...INBOX_COMMANDS, ...READER_COMMANDS, ...QA_COMMANDS, ...LOOP_COMMANDS, ...CATCHER_COMMANDS, ...RULE_COMMANDS, ...APP_COMMANDS];

// Hints read the keymap the user has now, on the platform it runs on.
setHintLookup((id) => {
  const command = COMMANDS.find((c) => c.id === id);
  if (!command) return null;
  const { settings, appInfo } = useStore.getState();
  const binding = bindingsOf(command, settings.keymap)[0];
  return binding ? displayBinding(binding, appInfo?.platform === 'darwin') : null;
});

export function commandById(id: string): Command | undefined {
  return COMMANDS.find((command) => command.id === id);
}

/** Runs a command by id (the palette, the app menu); an unknown id does nothing. */
export function runCommand(id: string): void {
  commandById(id)?.run();
}
