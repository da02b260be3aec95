import { useStore } from '../../store.ts';
import type { Command, Context } from '../commands/registry.ts';

const s = () => useStore.getState();
const reading = (c: Context) => c.view === 'inbox' && c.readerOpen;

/** The tester's bench: each tool one key from the open email. */
export const QA_COMMANDS: Command[] = [
  { id: 'qa.copy-code', title: 'Copy the verification code', group: 'Tester’s bench', keys: ['C'], when: reading, run: () => void s().copyInsight('code') },
  { id: 'qa.copy-link', title: 'Copy the main link (reset, confirm, sign in)', group: 'Tester’s bench', keys: ['L'], when: reading, run: () => void s().copyInsight('link') },
  { id: 'qa.save-eml', title: 'Save the email as .eml (its exact bytes)', group: 'Tester’s bench', keys: ['E'], when: reading, run: () => void s().saveRawMessage() },
  { id: 'qa.preview-width', title: 'Preview width: phone, tablet, full', group: 'Tester’s bench', keys: ['w'], when: (c) => c.view === 'inbox', run: () => s().cyclePreviewWidth() },
  { id: 'qa.preview-dark', title: 'Preview in a client’s dark mode', group: 'Tester’s bench', keys: ['D'], when: (c) => c.view === 'inbox', run: () => s().togglePreviewDark() },
  { id: 'qa.check-links', title: 'Check every link and image (asks the web: only when you press it)', group: 'Tester’s bench', keys: ['V'], when: reading, run: () => void s().checkLinks() },
  { id: 'qa.spam-score', title: 'Spam score: SpamAssassin’s verdict and each rule that fired (the spamd set in Settings)', group: 'Tester’s bench', keys: ['S'], when: reading, run: () => void s().checkSpam() },
  { id: 'qa.check-html', title: 'Check the HTML’s compatibility with email clients (caniemail.com)', group: 'Tester’s bench', keys: ['H'], when: reading, run: () => void s().checkCompatibility() },
  { id: 'qa.check-accessibility', title: 'Check accessibility with axe-core: alt text, lang, contrast light and dark, headings, tables, link text', group: 'Tester’s bench', keys: ['A'], when: reading, run: () => void s().checkAccessibility() },
  { id: 'qa.compare', title: 'Compare with the previous one of its kind (or the one picked with b): text, headers, links, rendering', group: 'Tester’s bench', keys: ['B'], when: reading, run: () => void s().compareWithPrevious() },
  { id: 'qa.compare-base', title: 'Pick this email to compare others with', group: 'Tester’s bench', keys: ['b'], when: reading, run: () => s().pickCompareBase() },
  // Ctrl/Cmd+P prints the open email as shown, never the app's own window: from a field or a dialog too.
  { id: 'qa.print', title: 'Print the email', group: 'Tester’s bench', keys: ['Mod+P'], when: reading, inFields: true, inModals: true, run: () => void s().printEmail(false) },
  { id: 'qa.save-pdf', title: 'Save the email as PDF', group: 'Tester’s bench', keys: ['P'], when: reading, run: () => void s().printEmail(true) },
];
