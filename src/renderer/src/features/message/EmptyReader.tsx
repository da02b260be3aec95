/** The reader's words with no email open. */
export const NO_EMAIL_OPEN = 'Select an email and press Enter. Press ? for all shortcuts.';

/** The reader pane with no email open: what stands in while the reader's code loads (it is not on the first screen). */
export function EmptyReader() {
  return (
    <section className="message-pane empty" aria-label="Message">
      <p>{NO_EMAIL_OPEN}</p>
    </section>
  );
}
