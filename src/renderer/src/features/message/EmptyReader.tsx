import { CATCHER_ID } from '../../../../shared/domain/catcher.ts';
import { useStore } from '../../store.ts';
import { ApiForTests } from '../catcher/ApiForTests.tsx';
import { useKeyHints } from '../commands/use-hints.ts';

/**
 * The reader's words with no email open, with the keys as the user has them. On This
 * computer, the pane also says where a test suite or an agent reaches the catcher: the
 * room is free, and that is what its user wires up next.
 */
export function NoEmailOpen() {
  const { keyHint } = useKeyHints();
  const catcher = useStore((s) => (s.accounts?.activeId === CATCHER_ID ? s.accounts.catcher : null));
  const open = keyHint('inbox.open');
  const help = keyHint('app.shortcuts');
  return (
    <div className="no-email-open">
      <p>
        Select an email and {open ? `press ${open}` : 'open it'}.{help ? ` Press ${help} for all shortcuts.` : ''}
      </p>
      {catcher && <ApiForTests state={catcher} />}
    </div>
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
