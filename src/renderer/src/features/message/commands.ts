import { useStore } from '../../store.ts';
import type { Command, Context } from '../commands/registry.ts';
import { scrollReader } from './reader-scroll.ts';

const s = () => useStore.getState();
const reading = (c: Context) => c.view === 'inbox' && c.readerOpen;

export const READER_COMMANDS: Command[] = [
  {
    id: 'reader.back',
    title: 'Back to the list',
    group: 'Reading',
    keys: ['u'],
    run: () => {
      if (s().openId) s().closeMessage();
      s().setView('inbox');
      document.getElementById('email-list')?.focus();
    },
  },
  {
    id: 'reader.page-down',
    title: 'Scroll the email down (at its end, the next email)',
    group: 'Reading',
    keys: ['Space', 'PageDown'],
    when: (c) => reading(c) && !c.onControl,
    // Space at the end of an email goes on to the next one, as in mutt and Gmail's reading pane.
    run: () => void (scrollReader('page-down') || s().moveSelection(1)),
  },
  { id: 'reader.page-up', title: 'Scroll the email up', group: 'Reading', keys: ['Shift+Space', 'PageUp'], when: reading, run: () => void scrollReader('page-up') },
  { id: 'reader.top', title: 'Top of the email', group: 'Reading', keys: ['Home'], when: reading, run: () => void scrollReader('top') },
  { id: 'reader.bottom', title: 'End of the email', group: 'Reading', keys: ['End'], when: reading, run: () => void scrollReader('bottom') },
  { id: 'reader.html', title: 'Show the HTML view', group: 'Reading', keys: ['1'], when: reading, run: () => void s().setFormat('html') },
  { id: 'reader.text', title: 'Show the text view', group: 'Reading', keys: ['2'], when: reading, run: () => void s().setFormat('text') },
  { id: 'reader.raw', title: 'Show the raw message', group: 'Reading', keys: ['3'], when: reading, run: () => void s().setFormat('raw') },
  { id: 'reader.headers', title: 'Show the headers', group: 'Reading', keys: ['4'], when: reading, run: () => void s().showHeaders() },
  { id: 'reader.load-remote', title: 'Load remote images', group: 'Reading', keys: ['i'], when: reading, run: () => s().allowRemote() },
  { id: 'reader.save-attachment', title: 'Save an attachment (then its number)', group: 'Reading', keys: ['a'], when: reading, run: () => s().chooseAttachment() },
  {
    id: 'reader.rule-from-email',
    title: 'New rule from this email',
    group: 'Reading',
    keys: ['R'],
    when: (c) => c.view === 'inbox',
    run: () => {
      const email = s().email ?? s().list?.data.find((e) => e.id === s().selectedId);
      if (email) s().ruleFromEmail(email);
    },
  },
];
