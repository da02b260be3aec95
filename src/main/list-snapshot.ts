/**
 * The first screen as it last stood, per account: page 1 of the plain inbox
 * (no search), kept in a file of its own under userData, so the next start
 * paints rows at once and the fresh page replaces them when the server
 * answers. Only list rows, never a body; an account removed, or whose token
 * is gone, has none. Written a moment after each change (and on quit), never
 * on every poll. No electron import.
 */
import { z } from 'zod';
import { EmailPageSchema, type EmailPage } from '../shared/domain/email.ts';
import type { ListQuery } from '../shared/domain/list-query.ts';
import { JsonFile } from './account/json-file.ts';

export interface ListSnapshot {
  /** When the page was read from the server (ISO). */
  at: string;
  page: EmailPage;
}

const FileSchema = z.object({
  version: z.literal(1),
  accounts: z.record(z.string(), z.object({ at: z.string(), page: z.unknown() })),
});
type SnapshotFile = z.infer<typeof FileSchema>;

/** How long after a change the file is written: a burst of polls is one write. */
export const SNAPSHOT_WRITE_MS = 2_000;

/** The plain inbox's first page (what the app opens on): the only list a snapshot is kept of. */
export function isFirstScreen(query: ListQuery): boolean {
  const { page, limit, ...filters } = query;
  return (page ?? 1) === 1 && limit !== undefined && Object.values(filters).every((value) => value === undefined || value === false);
}

export class ListSnapshots {
  private readonly file: JsonFile<SnapshotFile>;
  private data: SnapshotFile;
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Something the file does not hold yet (a change waiting for its write, or a poll's time). */
  private dirty = false;

  private constructor(file: JsonFile<SnapshotFile>, data: SnapshotFile) {
    this.file = file;
    this.data = data;
  }

  static async load(path: string): Promise<ListSnapshots> {
    const file = new JsonFile(path, (value) => {
      const parsed = FileSchema.safeParse(value);
      return parsed.success ? parsed.data : null;
    });
    const { value } = await file.read();
    return new ListSnapshots(file, value ?? { version: 1, accounts: {} });
  }

  /** The account's first screen as last seen, validated as a page from the server would be; null when none. */
  get(account: string): ListSnapshot | null {
    const stored = this.data.accounts[account];
    if (!stored) return null;
    const page = EmailPageSchema.safeParse(stored.page);
    return page.success ? { at: stored.at, page: page.data } : null;
  }

  /** A fresh first page of the account: kept, and written a moment later. */
  remember(account: string, query: ListQuery, page: EmailPage, at = new Date()): void {
    if (!isFirstScreen(query)) return;
    const unchanged = JSON.stringify(this.data.accounts[account]?.page) === JSON.stringify(page);
    this.data = { ...this.data, accounts: { ...this.data.accounts, [account]: { at: at.toISOString(), page } } };
    this.dirty = true;
    // A poll that found nothing new is no write of its own: its time goes to the file with the next change, or on quit.
    if (!unchanged) this.schedule();
  }

  /** An account removed, or its token gone: its rows go too. */
  forget(account: string): void {
    if (!(account in this.data.accounts)) return;
    const { [account]: _gone, ...rest } = this.data.accounts;
    this.data = { ...this.data, accounts: rest };
    this.dirty = true;
    this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), SNAPSHOT_WRITE_MS);
    this.timer.unref?.();
  }

  /** The file lacks something shown: quitting waits for flush(). */
  get pending(): boolean {
    return this.dirty;
  }

  /** Writes what is pending now (quitting). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.dirty = false;
    await this.file.write(this.data);
  }
}
