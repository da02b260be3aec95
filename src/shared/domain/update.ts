/** Where the app's own update stands (main/updates/policy.ts decides). */
export type UpdateStatus =
  | { state: 'disabled' }
  | { state: 'up-to-date'; checkedAt: number }
  | { state: 'downloading'; version: string }
  | { state: 'ready'; version: string }
  /** Quiet: nothing is shown; the next check is at `retryAt`. */
  | { state: 'failed'; retryAt: number };
