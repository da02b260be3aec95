/** The real clock's timer as main's modules take it (tests hand in their own): runs `run` after `ms`, answers how to cancel. */
export function realTimer(run: () => void, ms: number): () => void {
  const timer = setTimeout(run, ms);
  return () => clearTimeout(timer);
}
