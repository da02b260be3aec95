/**
 * Deletes that can be undone: the DELETE is sent only when the undo window
 * closes, or at once when the app quits (flush), so an undone delete never
 * reaches the server and a confirmed one is never lost. No electron import.
 */
export class DeferredActions {
  private readonly pending = new Map<string, { timer: ReturnType<typeof setTimeout>; run: () => Promise<void> }>();

  /** Runs `run` after `delayMs`, unless cancelled or flushed first. */
  schedule(key: string, delayMs: number, run: () => Promise<void>): void {
    this.cancel(key);
    const timer = setTimeout(() => {
      this.pending.delete(key);
      void run().catch(() => undefined);
    }, delayMs);
    this.pending.set(key, { timer, run });
  }

  /** True when it was still pending (the undo came in time). */
  cancel(key: string): boolean {
    const entry = this.pending.get(key);
    if (!entry) return false;
    clearTimeout(entry.timer);
    this.pending.delete(key);
    return true;
  }

  get size(): number {
    return this.pending.size;
  }

  /** Runs everything pending now (quitting, switching account). */
  async flush(): Promise<void> {
    const entries = [...this.pending.values()];
    this.pending.clear();
    for (const entry of entries) clearTimeout(entry.timer);
    await Promise.allSettled(entries.map((entry) => entry.run()));
  }
}
