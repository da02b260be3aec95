import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

/**
 * A JSON file written atomically: a temp file is written and fsynced, then
 * renamed over the old one, so a crash leaves either the old or the new file.
 * The last good content is kept beside it (`.bak`). A file that does not
 * parse or validate is set aside (`.corrupt-*`), never trusted.
 */
export class JsonFile<T> {
  private readonly path: string;
  private readonly validate: (value: unknown) => T | null;
  private readonly scrub: (text: string) => string;
  private writes: Promise<void> = Promise.resolve();

  /** `scrub` takes secrets out of a damaged file before it is set aside. */
  constructor(path: string, validate: (value: unknown) => T | null, scrub: (text: string) => string = (text) => text) {
    this.path = path;
    this.validate = validate;
    this.scrub = scrub;
  }

  /** The stored value; null when neither the file nor its backup is usable. */
  async read(): Promise<{ value: T | null; recovered: boolean }> {
    const primary = await this.tryRead(this.path);
    if (primary.value !== null) return { value: primary.value, recovered: false };
    if (primary.existed) await this.setAside(primary.text ?? '');
    const backup = await this.tryRead(`${this.path}.bak`);
    return { value: backup.value, recovered: primary.existed };
  }

  /** Keeps a scrubbed copy of a damaged file for inspection, and removes the original. */
  private async setAside(text: string): Promise<void> {
    try {
      await writeAtomically(`${this.path}.corrupt-${Date.now()}`, this.scrub(text));
    } finally {
      await rm(this.path, { force: true });
    }
  }

  private async tryRead(path: string): Promise<{ value: T | null; existed: boolean; text?: string }> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      return { value: null, existed: false };
    }
    try {
      return { value: this.validate(JSON.parse(text)), existed: true, text };
    } catch {
      return { value: null, existed: true, text };
    }
  }

  /** Writes are queued so two saves never interleave. */
  write(value: T): Promise<void> {
    const next = this.writes.then(() => this.writeNow(value));
    this.writes = next.catch(() => undefined);
    return next;
  }

  private async writeNow(value: T): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true });
    const text = `${JSON.stringify(value, null, 2)}\n`;
    await writeAtomically(this.path, text);
    // The backup is a second complete copy, written the same way.
    await writeAtomically(`${this.path}.bak`, text);
  }
}

/**
 * Temp file, fsync, rename (write-file-atomic, npm's own): the target is always
 * either the old or the new content, and a temp file left by a signal mid-write
 * is removed on the way out. Owner-only: the file names accounts and servers.
 */
function writeAtomically(path: string, text: string): Promise<void> {
  return writeFileAtomic(path, text, { mode: 0o600, fsync: true });
}
