import { useStore } from '../../store.ts';
import type { Command, Context } from '../commands/registry.ts';
import { BENCH_CHECKS } from './checks.ts';

const s = () => useStore.getState();
const reading = (c: Context) => c.view === 'inbox' && c.readerOpen;

/** The tester's bench: each tool one key from the open email. */
export const QA_COMMANDS: Command[] = [
  { id: 'qa.copy-code', title: 'Copy the verification code', group: 'Tester’s bench', keys: ['C'], when: reading, run: () => void s().copyInsight('code') },
  { id: 'qa.copy-link', title: 'Copy the main link (reset, confirm, sign in)', group: 'Tester’s bench', keys: ['L'], when: reading, run: () => void s().copyInsight('link') },
  { id: 'qa.save-eml', title: 'Save the email as .eml (its exact bytes)', group: 'Tester’s bench', keys: ['E'], when: reading, run: () => void s().saveRawMessage() },
  { id: 'qa.preview-width', title: 'Preview width: phone, tablet, full', group: 'Tester’s bench', keys: ['w'], when: (c) => c.view === 'inbox', run: () => s().cyclePreviewWidth() },
  { id: 'qa.preview-dark', title: 'Preview in a client’s dark mode', group: 'Tester’s bench', keys: ['D'], when: (c) => c.view === 'inbox', run: () => s().togglePreviewDark() },
  // The checks main runs, one per descriptor (checks.ts).
  ...BENCH_CHECKS.map((check): Command => ({ id: check.command.id, title: check.command.title, group: 'Tester’s bench', keys: [check.command.key], when: reading, run: () => void s().runCheck(check.id) })),
  { id: 'qa.compare-base', title: 'Pick this email to compare others with', group: 'Tester’s bench', keys: ['b'], when: reading, run: () => s().pickCompareBase() },
  // Ctrl/Cmd+P prints the open email as shown, never the app's own window: from a field or a dialog too.
  { id: 'qa.print', title: 'Print the email', group: 'Tester’s bench', keys: ['Mod+P'], when: reading, inFields: true, inModals: true, run: () => void s().printEmail(false) },
  { id: 'qa.save-pdf', title: 'Save the email as PDF', group: 'Tester’s bench', keys: ['P'], when: reading, run: () => void s().printEmail(true) },
];
