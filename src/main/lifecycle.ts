/**
 * The app's lifecycle decisions as plain functions over what they touch, so a
 * test runs the very code index.ts wires to Electron's events.
 */

/**
 * For 'before-quit': the first quit is held until every delete still inside
 * its undo window has been sent, then the app quits for real (once).
 */
export function flushBeforeQuit(flush: () => Promise<void>, quit: () => void): (event: { preventDefault(): void }) => void {
  let flushed = false;
  let flushing = false;
  return (event) => {
    if (flushed) return;
    event.preventDefault();
    if (flushing) return;
    flushing = true;
    void flush().finally(() => {
      flushed = true;
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
