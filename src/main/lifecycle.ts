/**
 * The app's lifecycle decisions as plain functions over what they touch, so a
 * test runs the very code index.ts wires to Electron's events.
 */

/**
 * For 'before-quit': every quit is held while deletes wait in their undo
 * window; they are sent, then the app quits again. Quitting can be cancelled
 * later (a window's close guard), and a delete made after that is held by the
 * next quit the same way: none depends on an earlier quit's flush.
 */
export function flushBeforeQuit(waiting: () => number, flush: () => Promise<void>, quit: () => void): (event: { preventDefault(): void }) => void {
  let flushing = false;
  return (event) => {
    if (!flushing && waiting() === 0) return;
    event.preventDefault();
    if (flushing) return;
    flushing = true;
    void flush().finally(() => {
      flushing = false;
      quit();
    });
  };
}

/** For 'second-instance': the running window comes back (restored, focused) instead of a second app. */
export function focusExisting(window: { isMinimized(): boolean; restore(): void; focus(): void } | null): void {
  if (!window) return;
  if (window.isMinimized()) window.restore();
  window.focus();
}

/** Before the window closes: a rule with unsaved changes asks (keep editing, or close anyway). */
export function mayClose(unsavedTitle: string | null, askToClose: (title: string) => boolean): boolean {
  return unsavedTitle === null || askToClose(unsavedTitle);
}
