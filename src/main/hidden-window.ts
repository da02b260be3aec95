/**
 * One of main's hidden windows (print, the accessibility check, compare):
 * made, then made ready (its document loaded, measured); if getting it ready
 * fails, the window goes too, instead of one staying open, unseen, per press.
 * No electron import: index.ts hands in how a window is made and loaded.
 */
export async function openHidden<W extends { destroy(): void }, T>(make: () => W, ready: (window: W) => Promise<T>): Promise<T> {
  const window = make();
  try {
    return await ready(window);
  } catch (error) {
    window.destroy();
    throw error;
  }
}
