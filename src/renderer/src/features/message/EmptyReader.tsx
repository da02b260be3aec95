import { useKeyHints } from '../commands/use-hints.ts';

/** The reader's words with no email open, with the keys as the user has them. */
export function NoEmailOpen() {
  const { keyHint } = useKeyHints();
  const open = keyHint('inbox.open');
  const help = keyHint('app.shortcuts');
  return (
    <p>
      Select an email and {open ? `press ${open}` : 'open it'}.{help ? ` Press ${help} for all shortcuts.` : ''}
    </p>
  );
}

/** The reader pane with no email open: what stands in while the reader's code loads (it is not on the first screen). */
export function EmptyReader() {
  return (
    <section className="message-pane empty" aria-label="Message">
      <NoEmailOpen />
    </section>
  );
}
