import { randomUUID } from 'node:crypto';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { AutomationInput } from '../shared/domain/automation.ts';
import { LruCache } from '../shared/lru.ts';
import { timeOrderedUuid, uuidFromName } from './ids.ts';
import { startCheckpointer, type Checkpointer, type CheckpointPass } from './store-checkpointer.ts';
import { addDeliveryColumn, addFoldedColumns, ascendingArrivalIndexes, reuseNoRowNumbers, SCHEMA } from './store-schema.ts';
import { searchPhrase, TRIGRAMS_ASKED, trigramsOf } from './search-plan.ts';
import { foldCase } from './case-fold.ts';
import { longestPiece, wildcardMatch } from './wildcard.ts';
import type { ParsedMessage } from './ingest.ts';

/**
 * One team's data in SQLite (node:sqlite, no native build): a file in WAL mode
 * under `--data`, or an in-memory database for tests and the demo. The list's
 * order and filters are indexed, `search` uses a trigram full-text index, and
 * bodies and raw messages stay on disk until a request asks for them. This
 * file holds the rows, the group commit and the queries; the schema
 * (store-schema.ts), the checkpointing thread (store-checkpointer.ts), the
 * search plan (search-plan.ts) and the wire format (email-resource.ts) are
 * rooms of their own. Nothing here speaks HTTP.
 */

export interface StoredAddress {
  id: string;
  display_name: string;
  email: string;
  created_at: Date;
  updated_at: Date;
}

export interface StoredAttachment {
  id: string;
  fileName: string;
  contentType: string;
  size: number;
  headersHashed: string;
  /** MailCare's record: the MIME part's length and md5 of its headers (absent for mail stored before). */
  partSize?: number;
  headersMd5?: string;
  /** Shown within the body (ingest.ts's ParsedAttachment.inline); absent for a part attached, or stored before. */
  inline?: true;
  createdAt: Date;
}

/** An email's record: everything the list shows. Bodies come from `content()`. */
export interface StoredEmail {
  id: string;
  sender: StoredAddress;
  inbox: StoredAddress;
  carbonCopies: { display_name: string; email: string }[];
  subject: string;
  createdAt: Date;
  read: Date | null;
  favorite: boolean;
  hasHtml: boolean;
  hasText: boolean;
  size: number;
  attachments: StoredAttachment[];
  /** The delivery it came in with: the rows of one message sent to several recipients share it. */
  delivery: number;
  /** In a grouped page: every recipient of its delivery (the envelope's), in the order they were taken. */
  deliveredTo?: string[];
}

export interface StoredContent {
  raw: Buffer;
  html: string | null;
  text: string | null;
}

export interface StoredAutomation extends Required<AutomationInput> {
  id: string;
  emails_received: number;
  in_error: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface ListFilters {
  inbox?: string;
  sender?: string;
  subject?: string;
  since?: Date;
  until?: Date;
  search?: string;
  unread?: boolean;
  favorite?: boolean;
  /** Only mail that arrived after this cursor (`cursor()`): the catcher's wait. */
  after?: number;
  /**
   * One entry per delivery (a message sent to To, Cc and Bcc at once is one, as
   * a catcher lists it), found by any of its rows: the first matching row stands
   * for it, with every recipient in `deliveredTo`.
   */
  grouped?: boolean;
}

export interface EmailPage {
  emails: StoredEmail[];
  total: number;
}



interface EmailRow {
  seq: number;
  id: string;
  inbox: string;
  sender: string;
  subject: string;
  created_at: number;
  read_at: number | null;
  favorite: number;
  has_html: number;
  has_text: number;
  size: number;
  carbon_copies: string;
  attachments: string;
  delivery: number | null;
  s_id: string;
  s_name: string;
  s_created: number;
  s_updated: number;
  i_id: string;
  i_name: string;
  i_created: number;
  i_updated: number;
}

const EMAIL_COLUMNS = `e.*, s.id AS s_id, s.display_name AS s_name, s.created_at AS s_created, s.updated_at AS s_updated,
  i.id AS i_id, i.display_name AS i_name, i.created_at AS i_created, i.updated_at AS i_updated
  FROM emails e JOIN addresses s ON s.email = e.sender JOIN addresses i ON i.email = e.inbox`;



interface KnownAddress {
  id: string;
  display_name: string;
  created_at: number;
  updated_at: number;
}

/**
 * How many turns of the event loop a group commit waits for more mail. Under load each
 * turn reads a few sessions' messages; a commit a turn made batches of 2.4 on average
 * over 8 SMTP sessions, and a commit (its log frames and locks) costs as much as two
 * messages' rows. Waiting four turns: 4,400 against 3,700 msg/s and a sixth less CPU
 * (bench ingest, 10,000 messages, 2 cores). When idle a turn is microseconds.
 */
const GROUP_COMMIT_TURNS = 4;
/**
 * The log's size is kept near WAL_HOLD_FRAMES (16 MB of 4 KB pages) under steady ingest
 * (afterCheckpointPass): a pass is asked for every CHECKPOINT_EVERY_COMMITS group
 * commits (a few MB of log at most between passes), besides the thread's own pass a second.
 */
const WAL_HOLD_FRAMES = 4096;
const CHECKPOINT_EVERY_COMMITS = 64;
const CHECKPOINT_INTERVAL_MS = 1000;
/** A hold lasts one pass (about 4 ms here); past this the commits go on regardless. */
const CHECKPOINT_HOLD_MAX_MS = 200;

/** A transaction's new rows, none yet (TeamStore.countArrivals). */
const noArrivals = () => ({ total: 0, unread: 0, favorite: 0 });

export class TeamStore {
  readonly id: string;
  /** Few and read on every ingest: kept in memory, written through. */
  readonly automations = new Map<string, StoredAutomation>();
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();

  /** `file` is a database path; without one the team lives in memory. */
  constructor(id: string, file?: string) {
    this.id = id;
    // Waits for a lock rather than failing at once: another program reading the file holds one for a moment.
    this.db = new DatabaseSync(file ?? ':memory:', { timeout: 2000 });
    // WAL with NORMAL sync: a change is one small append, durable across a crash of the process.
    // A 16 MB page cache keeps the list's indexes of 100k emails warm; a search reads only two trigrams' lists (searchMatch).
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -16000;');
    this.db.function('fold_case', { deterministic: true }, (text) => foldCase(String(text)));
    reuseNoRowNumbers(this.db);
    addFoldedColumns(this.db);
    addDeliveryColumn(this.db);
    ascendingArrivalIndexes(this.db);
    this.db.exec(SCHEMA);
    // How many emails hold a trigram (searchMatch); temp: nothing of it is stored.
    this.db.exec("CREATE VIRTUAL TABLE temp.email_search_vocab USING fts5vocab(main, 'email_search', 'row')");
    this.db.function('wildcard_match', { deterministic: true }, (pattern, text) =>
      wildcardMatch(String(pattern), String(text)) ? 1 : 0,
    );
    this.indexPending();
    if (file) {
      // Checkpoints (copying the log into the database, with an fsync) run on a
      // connection of their own in another thread, never inside a commit here.
      this.db.exec('PRAGMA wal_autocheckpoint = 0;');
      // It holds no data: the smallest heap V8 allows.
      this.checkpointer = startCheckpointer(file, CHECKPOINT_INTERVAL_MS, (pass) => this.afterCheckpointPass(pass));
    }
    // rowid breaks ties that older files hold (positions were once reused): the order of creation.
    const rows = this.sql('SELECT record FROM automations ORDER BY position, rowid').all() as { record: string }[];
    for (const { record } of rows) {
      const a = JSON.parse(record) as StoredAutomation & { created_at: string; updated_at: string };
      this.automations.set(a.id, { ...a, action_email: a.action_email ?? null, created_at: new Date(a.created_at), updated_at: new Date(a.updated_at) });
    }
  }

  private checkpointer: Checkpointer | null = null;
  /** Set while group commits wait for a checkpoint to copy the whole log (afterCheckpointPass). */
  private heldForCheckpoint: { asked: number; timeout: NodeJS.Timeout } | null = null;
  private checkpointsAsked = 0;
  private commitsSincePass = 0;
  /** The log's size at which commits next wait for a pass (afterCheckpointPass), and its size at the last pass. */
  private holdAtFrames = WAL_HOLD_FRAMES;
  private lastLogFrames = 0;

  /**
   * A pass copies the log as it stood when the pass began, and the writer appends
   * on meanwhile: under steady ingest no pass ever finds the whole log copied when
   * the next commit begins, so SQLite never starts the log over, and the file grew
   * by every frame written (360 MB after 16,000 messages, for a 16 MB database).
   * Once the log is past WAL_HOLD_FRAMES, group commits wait while a pass of
   * their own copies the rest; the next commit then starts the log at its beginning.
   */
  private afterCheckpointPass({ asked, log, checkpointed }: CheckpointPass): void {
    this.lastLogFrames = log;
    const held = this.heldForCheckpoint;
    if (held) {
      if (asked !== held.asked) return;
      // Copied whole, with no commit since it began: the next commit starts the log over.
      // Not whole: another connection reads part of it, or a write outside the group commits
      // came in. The commits go on, and the next try waits until the log grows by as much again,
      // rather than holding them back while a reader stays.
      this.holdAtFrames = checkpointed >= log ? WAL_HOLD_FRAMES : log + WAL_HOLD_FRAMES;
      this.releaseCheckpointHold();
      return;
    }
    // A short log was started over (a whole pass while idle, or after a hold).
    if (log < WAL_HOLD_FRAMES) this.holdAtFrames = WAL_HOLD_FRAMES;
    if (log < this.holdAtFrames) return;
    const askedNow = ++this.checkpointsAsked;
    const giveUp = () => {
      // The pass is late (a slow disk, a stuck thread): as when it is not whole, no hold until the log has grown again.
      this.holdAtFrames = this.lastLogFrames + WAL_HOLD_FRAMES;
      this.releaseCheckpointHold();
    };
    this.heldForCheckpoint = { asked: askedNow, timeout: setTimeout(giveUp, CHECKPOINT_HOLD_MAX_MS) };
    this.checkpointer?.passNow(askedNow);
  }

  private releaseCheckpointHold(): void {
    if (!this.heldForCheckpoint) return;
    clearTimeout(this.heldForCheckpoint.timeout);
    this.heldForCheckpoint = null;
    this.commitQueued();
  }

  close(): void {
    if (this.heldForCheckpoint) clearTimeout(this.heldForCheckpoint.timeout);
    this.heldForCheckpoint = null;
    this.commitQueued();
    this.checkpointer?.stop();
    if (this.db.isOpen) {
      this.indexPending();
      this.db.close();
    }
  }

  /** Settles once the checkpointing thread has ended (after close). */
  closed(): Promise<void> {
    return this.checkpointer?.exited ?? Promise.resolve();
  }

  private indexTimer: NodeJS.Timeout | null = null;

  /**
   * How many emails hold each trigram, as searches asked (fts5vocab): a
   * statistic like ANALYZE's, kept until the index has grown by a quarter.
   * Stale figures cost speed, never results: every hit is checked.
   */
  private readonly trigramDocs = new Map<string, number>();
  private trigramDocsAt = 0;

  private docsWith(trigram: string): number {
    let docs = this.trigramDocs.get(trigram);
    if (docs === undefined) {
      docs = (this.sql('SELECT doc FROM temp.email_search_vocab WHERE term = ?').get(trigram) as { doc: number } | undefined)?.doc ?? 0;
      this.trigramDocs.set(trigram, docs);
    }
    return docs;
  }

  /**
   * What to ask the trigram index for a term, and whether its hits must be
   * checked. A phrase of every trigram reads every trigram's list of emails:
   * for a domain like initech12, five lists of a fifth of the store each. Two
   * of the rarest trigrams find a few more emails than hold the term, at a
   * fraction of the cost, and instr() then keeps those that do. The term is
   * folded, as the indexed columns are.
   */
  private searchMatch(term: string): { match: string; checked: boolean } {
    const trigrams = trigramsOf(term);
    if (trigrams.length <= TRIGRAMS_ASKED) return { match: searchPhrase(term), checked: false };
    const rarest = trigrams.sort((a, b) => this.docsWith(a) - this.docsWith(b)).slice(0, TRIGRAMS_ASKED);
    return { match: rarest.map(searchPhrase).join(' AND '), checked: true };
  }

  /** SQLite's own check of the file and the full-text index's check of itself: empty when both are clean. */
  checkIntegrity(): string[] {
    const problems = (this.db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[])
      .map((row) => row.integrity_check)
      .filter((line) => line !== 'ok');
    try {
      this.db.exec("INSERT INTO email_search (email_search, rank) VALUES ('integrity-check', 1)");
    } catch (error) {
      problems.push(`search index: ${(error as Error).message}`);
    }
    return problems;
  }

  /** Adds mail not yet in the search index to it, in one statement. */
  indexPending(): void {
    if (this.indexTimer) clearTimeout(this.indexTimer);
    this.indexTimer = null;
    this.transaction(() => {
      const { indexed_up_to: from } = this.sql('SELECT indexed_up_to FROM search_state').get() as { indexed_up_to: number };
      const { top } = this.sql('SELECT coalesce(max(seq), 0) AS top FROM emails').get() as { top: number };
      if (top <= from) return;
      this.sql('INSERT INTO email_search (rowid, folded_subject, folded_sender, folded_inbox) SELECT seq, folded_subject, folded_sender, folded_inbox FROM emails WHERE seq > ? AND seq <= ?').run(from, top);
      this.sql('UPDATE search_state SET indexed_up_to = ?').run(top);
      if (top > this.trigramDocsAt * 1.25) {
        this.trigramDocs.clear();
        this.trigramDocsAt = top;
      }
    });
  }

  private scheduleIndexing(): void {
    this.indexTimer ??= setTimeout(() => this.indexPending(), 200);
    this.indexTimer.unref();
  }

  /** Prepared once, reused: preparing costs more than running these. */
  private sql(text: string): StatementSync {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** Runs `work` in one transaction: a seed of thousands commits once. */
  transaction<T>(work: () => T): T {
    if (this.db.isTransaction) return work();
    this.db.exec('BEGIN');
    try {
      const result = work();
      this.countArrivals();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      this.addresses.clear();
      this.arrived = noArrivals();
      throw error;
    }
  }

  /** Rows added in the open transaction, not yet in `stats` (countArrivals). */
  private arrived = noArrivals();

  /** Adds the open transaction's new rows to `stats`: one UPDATE for a whole group commit. */
  private countArrivals(): void {
    const { total, unread, favorite } = this.arrived;
    if (total === 0) return;
    this.sql('UPDATE stats SET total = total + ?, unread = unread + ?, favorite = favorite + ?').run(total, unread, favorite);
    this.arrived = noArrivals();
  }

  private queued: { work: () => unknown; settle: (error: unknown, value?: unknown) => void }[] = [];

  /**
   * Runs `work` in the next group commit: mail that finishes parsing within a
   * few turns of the event loop shares one transaction, so a burst of SMTP ingest
   * pays for one commit (and one full-text segment) instead of one per message. Each
   * piece of work is still all-or-nothing (a savepoint of its own).
   */
  inNextCommit<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (this.queued.length === 0) this.commitAfterTurns(GROUP_COMMIT_TURNS);
      this.queued.push({ work, settle: (error, value) => (error === undefined ? resolve(value as T) : reject(error)) });
    });
  }

  private commitAfterTurns(turns: number): void {
    setImmediate(() => (turns > 1 ? this.commitAfterTurns(turns - 1) : this.commitQueued()));
  }

  private commitQueued(): void {
    if (this.heldForCheckpoint) return;
    const batch = this.queued;
    this.queued = [];
    if (batch.length === 0) return;
    if (!this.db.isOpen) {
      for (const item of batch) item.settle(new Error('the store is closed'));
      return;
    }
    let results: { error?: unknown; value?: unknown }[];
    try {
      // The whole batch at once: no piece of work fails in the common case.
      results = this.transaction(() => batch.map((item) => ({ value: item.work() })));
    } catch {
      // One did, and the batch was rolled back: again, each piece in a savepoint of its own,
      // so that the others still land and only the one that failed is told.
      results = [];
      this.transaction(() => {
        for (const item of batch) {
          this.sql('SAVEPOINT queued').run();
          const arrivedBefore = { ...this.arrived };
          try {
            results.push({ value: item.work() });
            this.sql('RELEASE queued').run();
          } catch (error) {
            this.db.exec('ROLLBACK TO queued; RELEASE queued');
            // An address it wrote is gone again, and so are the rows it counted.
            this.addresses.clear();
            this.arrived = arrivedBefore;
            results.push({ error: error ?? new Error('failed') });
          }
        }
      });
    }
    batch.forEach((item, index) => item.settle(results[index]!.error, results[index]!.value));
    if (++this.commitsSincePass >= CHECKPOINT_EVERY_COMMITS && !this.heldForCheckpoint) {
      this.commitsSincePass = 0;
      this.checkpointer?.passNow(0);
    }
  }

  // ---- addresses ---------------------------------------------------------

  /** Addresses mail came from or to lately: two lookups fewer for each message that arrives. */
  private readonly addresses = new LruCache<string, KnownAddress>({ maxEntries: 5000 });

  /**
   * The address as stored, created on first sight; a name learned later fills
   * an empty one. MailCare's way (`names: 'latest'`): Sender/Inbox::updateOrCreate
   * with mailparse's display, which is the address itself when the header has no name.
   */
  private address(email: string, name: string, at: Date, names: 'fill' | 'latest' = 'fill'): StoredAddress {
    const key = email.toLowerCase();
    const displayName = names === 'latest' ? name || email : name;
    // Written only here: what was read or written last stands for the table row.
    const cached = this.addresses.get(key);
    const known = cached ?? (this.sql('SELECT id, display_name, created_at, updated_at FROM addresses WHERE email = ?').get(key) as KnownAddress | undefined);
    let row: KnownAddress;
    if (!known) {
      row = { id: uuidFromName(`${this.id}:address:${key}`), display_name: displayName, created_at: at.getTime(), updated_at: at.getTime() };
      this.sql('INSERT INTO addresses (email, id, display_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(key, row.id, displayName, row.created_at, row.updated_at);
    } else if (names === 'latest' ? displayName !== known.display_name : displayName && !known.display_name) {
      row = { ...known, display_name: displayName, updated_at: at.getTime() };
      this.sql('UPDATE addresses SET display_name = ?, updated_at = ? WHERE email = ?').run(displayName, row.updated_at, key);
    } else {
      row = known;
    }
    // A hit that changed nothing is in place already: get() made it the newest.
    if (row !== cached) this.addresses.set(key, row);
    return { id: row.id, display_name: row.display_name, email: key, created_at: new Date(row.created_at), updated_at: new Date(row.updated_at) };
  }

  knowsAddress(email: string): boolean {
    return this.sql('SELECT 1 FROM addresses WHERE email = ?').get(email.toLowerCase()) !== undefined;
  }

  // ---- emails ------------------------------------------------------------

  addEmail(
    raw: Buffer,
    parsed: ParsedMessage,
    options: { inbox: string; createdAt: Date; id?: string; read?: Date | null; favorite?: boolean; names?: 'fill' | 'latest'; delivery?: number },
  ): StoredEmail {
    const createdAt = options.createdAt;
    const inbox = options.inbox.toLowerCase();
    const inboxName = parsed.to.find((to) => to.address === inbox)?.name ?? '';
    const id = options.id ?? timeOrderedUuid();
    const attachments = parsed.attachments.map((attachment, index) => ({
      id: uuidFromName(`${id}:attachment:${index}`),
      fileName: attachment.fileName,
      contentType: attachment.contentType,
      size: attachment.content.length,
      headersHashed: attachment.headersHashed,
      ...(attachment.partSize !== undefined ? { partSize: attachment.partSize, headersMd5: attachment.headersMd5 } : {}),
      ...(attachment.inline ? { inline: true as const } : {}),
    }));
    const carbonCopies = parsed.cc.map((cc) => ({ display_name: cc.name, email: cc.address }));
    const senderAddress = parsed.sender.address.toLowerCase();
    const email = this.transaction((): StoredEmail => {
      const sender = this.address(parsed.sender.address, parsed.sender.name, createdAt, options.names);
      const inboxAddress = this.address(inbox, inboxName, createdAt, options.names);
      const { lastInsertRowid } = this.sql(
        `INSERT INTO emails (id, inbox, sender, subject, created_at, read_at, favorite, has_html, has_text, size, carbon_copies, attachments, folded_subject, folded_sender, folded_inbox, delivery)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        inbox,
        senderAddress,
        parsed.subject,
        createdAt.getTime(),
        options.read ? options.read.getTime() : null,
        options.favorite ? 1 : 0,
        parsed.html !== null ? 1 : 0,
        parsed.text !== null ? 1 : 0,
        raw.length,
        JSON.stringify(carbonCopies),
        JSON.stringify(attachments),
        foldCase(parsed.subject),
        foldCase(senderAddress),
        foldCase(inbox),
        options.delivery ?? null,
      );
      this.sql('INSERT INTO contents (seq, raw, html, text) VALUES (?, ?, ?, ?)').run(lastInsertRowid, raw, parsed.html, parsed.text);
      this.arrived.total += 1;
      if (!options.read) this.arrived.unread += 1;
      if (options.favorite) this.arrived.favorite += 1;
      return {
        id,
        sender,
        inbox: inboxAddress,
        carbonCopies,
        subject: parsed.subject,
        createdAt,
        read: options.read ?? null,
        favorite: options.favorite ?? false,
        hasHtml: parsed.html !== null,
        hasText: parsed.text !== null,
        size: raw.length,
        attachments: attachments.map((a) => ({ ...a, createdAt })),
        delivery: options.delivery ?? Number(lastInsertRowid),
      };
    });
    this.scheduleIndexing();
    return email;
  }

  getEmail(id: string): StoredEmail | null {
    const row = this.sql(`SELECT ${EMAIL_COLUMNS} WHERE e.id = ?`).get(id) as EmailRow | undefined;
    return row ? toEmail(row) : null;
  }

  /** The raw message and its decoded bodies, read from disk on demand. */
  content(id: string): StoredContent | null {
    const row = this.sql('SELECT c.raw, c.html, c.text FROM contents c JOIN emails e ON e.seq = c.seq WHERE e.id = ?').get(id) as
      | { raw: Uint8Array; html: string | null; text: string | null }
      | undefined;
    return row ? { raw: Buffer.from(row.raw.buffer, row.raw.byteOffset, row.raw.byteLength), html: row.html, text: row.text } : null;
  }

  count(): number {
    this.countArrivals();
    return (this.sql('SELECT total FROM stats').get() as { total: number }).total;
  }

  /**
   * Where the store stands in the order of arrival: every email that arrives
   * later is `after` it. Row numbers are never reused (AUTOINCREMENT), so a
   * cursor stays true across deletes, retention and restarts.
   */
  cursor(): number {
    const row = this.sql("SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'emails'), 0) AS top").get() as { top: number };
    return row.top;
  }

  /** The cursor an email was stored at (its place in the order of arrival), or null. */
  cursorOf(id: string): number | null {
    return (this.sql('SELECT seq FROM emails WHERE id = ?').get(id) as { seq: number } | undefined)?.seq ?? null;
  }

  /**
   * Deliveries newest first (a message as it was sent: its rows, one per
   * recipient, in the order they were stored), and how many there are.
   */
  deliveryPage(offset: number, limit: number, only: { unread?: boolean } = {}): { deliveries: StoredEmail[][]; total: number } {
    const where = only.unread ? 'WHERE e.read_at IS NULL' : '';
    const { total } = this.sql(`SELECT count(DISTINCT coalesce(e.delivery, e.seq)) AS total FROM emails e ${where}`).get() as { total: number };
    const picked = this.sql(`SELECT coalesce(e.delivery, e.seq) AS d FROM emails e ${where} GROUP BY d ORDER BY max(e.created_at) DESC, d DESC LIMIT ? OFFSET ?`).all(limit, offset) as { d: number }[];
    return { deliveries: this.deliveries(picked.map((p) => p.d)), total };
  }

  /** Every row of these deliveries, grouped, in the order asked. */
  deliveries(numbers: number[]): StoredEmail[][] {
    if (numbers.length === 0) return [];
    const rows = this.sql(`SELECT ${EMAIL_COLUMNS} WHERE coalesce(e.delivery, e.seq) IN (SELECT value FROM json_each(?)) ORDER BY e.seq`).all(JSON.stringify(numbers)) as unknown as EmailRow[];
    const byDelivery = new Map<number, StoredEmail[]>(numbers.map((n) => [n, []]));
    for (const row of rows) byDelivery.get(row.delivery ?? row.seq)?.push(toEmail(row));
    return numbers.map((n) => byDelivery.get(n)!).filter((group) => group.length > 0);
  }

  // ---- tags (Mailpit's, on a delivery) -------------------------------------

  /** Each delivery's tags, by name. */
  tagsOf(deliveries: number[]): Map<number, string[]> {
    const tags = new Map<number, string[]>();
    if (deliveries.length === 0) return tags;
    const rows = this.sql('SELECT delivery, tag FROM message_tags WHERE delivery IN (SELECT value FROM json_each(?)) ORDER BY tag COLLATE BINARY').all(JSON.stringify(deliveries)) as { delivery: number; tag: string }[];
    for (const { delivery, tag } of rows) {
      const known = tags.get(delivery);
      if (known) known.push(tag);
      else tags.set(delivery, [tag]);
    }
    return tags;
  }

  /** Gives a delivery these tags and no others; a name another message has already keeps that spelling. */
  setTags(delivery: number, tags: readonly string[]): void {
    this.transaction(() => {
      const wanted = new Set(tags.map((tag) => tag.toLowerCase()));
      for (const { tag } of this.sql('SELECT tag FROM message_tags WHERE delivery = ?').all(delivery) as { tag: string }[]) {
        if (!wanted.has(tag.toLowerCase())) this.sql('DELETE FROM message_tags WHERE delivery = ? AND tag = ?').run(delivery, tag);
      }
      for (const tag of tags) {
        const known = (this.sql('SELECT tag FROM message_tags WHERE tag = ? LIMIT 1').get(tag) as { tag: string } | undefined)?.tag ?? tag;
        this.sql('INSERT OR IGNORE INTO message_tags (delivery, tag) VALUES (?, ?)').run(delivery, known);
      }
    });
  }

  /** Every tag in use, and on how many messages. */
  tagCounts(): Map<string, number> {
    const rows = this.sql('SELECT min(tag) AS tag, count(*) AS n FROM message_tags GROUP BY tag ORDER BY min(tag) COLLATE BINARY').all() as { tag: string; n: number }[];
    return new Map(rows.map((row) => [row.tag, row.n]));
  }

  /** Renames a tag on every message: false when no message has it. */
  renameTag(from: string, to: string): boolean {
    return this.transaction(() => {
      const had = (this.sql('SELECT delivery FROM message_tags WHERE tag = ?').all(from) as { delivery: number }[]).map((row) => row.delivery);
      if (had.length === 0) return false;
      this.sql('DELETE FROM message_tags WHERE tag = ?').run(from);
      for (const delivery of had) this.sql('INSERT OR IGNORE INTO message_tags (delivery, tag) VALUES (?, ?)').run(delivery, to);
      return true;
    });
  }

  /** Takes a tag off every message: false when no message had it. */
  deleteTag(tag: string): boolean {
    return this.sql('DELETE FROM message_tags WHERE tag = ?').run(tag).changes > 0;
  }

  /** The first email to arrive after `after` that matches: the answer to a wait. */
  firstAfter(after: number, filters: Omit<ListFilters, 'after'>): StoredEmail | null {
    // The list is newest first: the oldest match is its last row. (A search counts its matches only on a page it reads.)
    if (filters.search !== undefined) return this.page({ ...filters, after }).emails.at(-1) ?? null;
    const { total } = this.page({ ...filters, after }, 0, 0);
    return total === 0 ? null : (this.page({ ...filters, after }, total - 1, 1).emails[0] ?? null);
  }

  /** Changes the fields given; false when there is no such email. */
  updateEmail(id: string, change: { read?: Date | null; favorite?: boolean; createdAt?: Date }): boolean {
    const sets: string[] = [];
    const values: SQLInputValue[] = [];
    if (change.read !== undefined) {
      sets.push('read_at = ?');
      values.push(change.read ? change.read.getTime() : null);
    }
    if (change.favorite !== undefined) {
      sets.push('favorite = ?');
      values.push(change.favorite ? 1 : 0);
    }
    if (change.createdAt !== undefined) {
      sets.push('created_at = ?');
      values.push(change.createdAt.getTime());
    }
    if (sets.length === 0) return this.getEmail(id) !== null;
    return this.sql(`UPDATE emails SET ${sets.join(', ')} WHERE id = ?`).run(...values, id).changes > 0;
  }

  deleteEmail(id: string): boolean {
    return this.sql('DELETE FROM emails WHERE id = ?').run(id).changes > 0;
  }

  /** Every email gone (a catcher's "delete all"), or every one that arrived by `through`: answers how many. */
  deleteAll(through?: Date): number {
    if (through === undefined) return Number(this.sql('DELETE FROM emails').run().changes);
    return Number(this.sql('DELETE FROM emails WHERE created_at <= ?').run(through.getTime()).changes);
  }

  /** Keeps the newest `keep` emails and none older than `olderThan`; answers how many went. */
  prune({ keep, olderThan }: { keep?: number; olderThan?: Date }): number {
    let removed = 0;
    if (olderThan !== undefined) removed += Number(this.sql('DELETE FROM emails WHERE created_at < ?').run(olderThan.getTime()).changes);
    const over = keep === undefined ? 0 : this.count() - keep;
    if (over > 0) {
      // The oldest by arrival go (emails of the same millisecond in the order they came), read
      // from the old end: skipping the newest `keep` from the other end cost a walk past all of
      // them at every group commit once a catcher was full.
      removed += Number(this.sql('DELETE FROM emails WHERE seq IN (SELECT seq FROM emails ORDER BY created_at, seq LIMIT ?)').run(over).changes);
    }
    return removed;
  }

  /** One page of the list, newest first (ties by id, so pages are stable), and the total. */
  page(filters: ListFilters, offset = 0, limit = -1): EmailPage {
    const where: string[] = [];
    const values: SQLInputValue[] = [];
    if (filters.inbox !== undefined) {
      where.push('e.inbox = ?');
      values.push(filters.inbox.toLowerCase());
    }
    if (filters.sender !== undefined) {
      where.push('e.sender = ?');
      values.push(filters.sender.toLowerCase());
    }
    if (filters.subject !== undefined) {
      // SQLite finds the longest literal piece natively first; the wildcard check runs on those rows only.
      const piece = longestPiece(filters.subject);
      if (piece) {
        where.push('instr(e.folded_subject, ?)');
        values.push(piece);
      }
      where.push('wildcard_match(?, e.subject)');
      values.push(filters.subject);
    }
    if (filters.since !== undefined) {
      where.push('e.created_at > ?');
      values.push(filters.since.getTime());
    }
    if (filters.until !== undefined) {
      where.push('e.created_at < ?');
      values.push(filters.until.getTime());
    }
    if (filters.after !== undefined) {
      where.push('e.seq > ?');
      values.push(filters.after);
    }
    if (filters.unread) where.push('e.read_at IS NULL');
    if (filters.favorite) where.push('e.favorite = 1');
    const term = filters.search === undefined ? undefined : foldCase(filters.search);
    const grouped = filters.grouped === true;
    // The trigram index needs three characters; shorter terms scan.
    if (term !== undefined && [...term].length < 3) {
      where.push('(instr(e.folded_inbox, ?) OR instr(e.folded_sender, ?) OR instr(e.folded_subject, ?))');
      values.push(term, term, term);
    }
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const order = `ORDER BY e.created_at DESC, e.id LIMIT ? OFFSET ?`;

    if (term !== undefined && [...term].length >= 3) {
      // Start from the index's hits (a few thousand at most in practice), then
      // filter, order and count them in one pass; the page's rows come after.
      // Mail newer than the index (under a fraction of a second's worth) is scanned.
      const { match, checked } = this.searchMatch(term);
      const holdsTerm = (e: string) => `(instr(${e}folded_inbox, ?) OR instr(${e}folded_sender, ?) OR instr(${e}folded_subject, ?))`;
      const from = `FROM (SELECT rowid AS seq FROM email_search WHERE email_search MATCH ?
          UNION ALL SELECT seq FROM emails WHERE seq > (SELECT indexed_up_to FROM search_state) AND ${holdsTerm('')}) hits
        CROSS JOIN emails e ON e.seq = hits.seq ${checked ? `AND ${holdsTerm('e.')}` : ''}`;
      const hitValues = [match, term, term, term, ...(checked ? [term, term, term] : [])];
      if (grouped) return this.groupedPage(from, [...hitValues, ...values], clause, offset, limit);
      const matched = this.sql(`SELECT e.seq, count(*) OVER () AS total ${from} ${clause} ${order}`).all(
        ...hitValues,
        ...values,
        limit,
        offset,
      ) as { seq: number; total: number }[];
      if (matched.length === 0) {
        const total = offset === 0 ? 0 : (this.sql(`SELECT count(*) AS n ${from} ${clause}`).get(...hitValues, ...values) as { n: number }).n;
        return { emails: [], total };
      }
      return { emails: this.rowsBySeq(matched.map((m) => m.seq)), total: matched[0]!.total };
    }

    if (grouped) return this.groupedPage('FROM emails e', values, clause, offset, limit);
    const total = this.countWhere(filters, clause, values);
    if (limit === 0 || offset >= total) return { emails: [], total };
    const rows = this.sql(`SELECT ${EMAIL_COLUMNS} ${clause} ${order}`).all(...values, limit, offset) as unknown as EmailRow[];
    return { emails: rows.map(toEmail), total };
  }

  /** The whole list, unread and starred are counted as mail comes and goes; other filters count their rows. */
  private countWhere(filters: ListFilters, clause: string, values: SQLInputValue[]): number {
    const only = Object.entries(filters).filter(([, value]) => value !== undefined && value !== false).map(([key]) => key);
    if (only.length <= 1 && (only[0] === undefined || only[0] === 'unread' || only[0] === 'favorite')) {
      this.countArrivals();
      const stats = this.sql('SELECT total, unread, favorite FROM stats').get() as { total: number; unread: number; favorite: number };
      return only[0] === 'unread' ? stats.unread : only[0] === 'favorite' ? stats.favorite : stats.total;
    }
    return (this.sql(`SELECT count(*) AS n FROM emails e ${clause}`).get(...values) as { n: number }).n;
  }

  /** A page of deliveries: each stands as its first matching row, with all its recipients. */
  private groupedPage(from: string, values: SQLInputValue[], clause: string, offset: number, limit: number): EmailPage {
    const delivery = 'coalesce(e.delivery, e.seq)';
    const picked = this.sql(`SELECT min(e.seq) AS seq, count(*) OVER () AS total ${from} ${clause} GROUP BY ${delivery} ORDER BY max(e.created_at) DESC, min(e.seq) DESC LIMIT ? OFFSET ?`).all(
      ...values,
      limit,
      offset,
    ) as { seq: number; total: number }[];
    const total = picked.length > 0 ? picked[0]!.total : (this.sql(`SELECT count(DISTINCT ${delivery}) AS n ${from} ${clause}`).get(...values) as { n: number }).n;
    const emails = this.rowsBySeq(picked.map((p) => p.seq));
    const recipients = this.sql(`SELECT ${delivery} AS d, e.inbox AS inbox FROM emails e WHERE ${delivery} IN (SELECT value FROM json_each(?)) ORDER BY e.seq`).all(
      JSON.stringify(emails.map((email) => email.delivery)),
    ) as { d: number; inbox: string }[];
    const byDelivery = new Map<number, string[]>();
    for (const { d, inbox } of recipients) byDelivery.set(d, [...(byDelivery.get(d) ?? []), inbox]);
    return { emails: emails.map((email) => ({ ...email, deliveredTo: byDelivery.get(email.delivery) ?? [email.inbox.email] })), total };
  }

  /** Every row of this email's delivery (itself included), its id and recipient; empty when it is not there. */
  deliveryRows(id: string): { id: string; inbox: string }[] {
    return this.sql(`SELECT e2.id AS id, e2.inbox AS inbox FROM emails e JOIN emails e2 ON coalesce(e2.delivery, e2.seq) = coalesce(e.delivery, e.seq) WHERE e.id = ? ORDER BY e2.seq`).all(id) as {
      id: string;
      inbox: string;
    }[];
  }

  private rowsBySeq(seqs: number[]): StoredEmail[] {
    const rows = this.sql(`SELECT ${EMAIL_COLUMNS} WHERE e.seq IN (SELECT value FROM json_each(?))`).all(JSON.stringify(seqs)) as unknown as EmailRow[];
    const bySeq = new Map(rows.map((row) => [row.seq, row]));
    return seqs.map((seq) => toEmail(bySeq.get(seq)!));
  }

  /** Every email that matches, newest first. */
  query(filters: ListFilters = {}): StoredEmail[] {
    return this.page(filters).emails;
  }

  // ---- automations -------------------------------------------------------

  createAutomation(input: Required<AutomationInput>, now = new Date()): StoredAutomation {
    const automation: StoredAutomation = {
      ...input,
      id: randomUUID(),
      emails_received: 0,
      in_error: false,
      created_at: now,
      updated_at: now,
    };
    this.automations.set(automation.id, automation);
    this.saveAutomation(automation);
    return automation;
  }

  /** Writes an automation's current fields (after an edit or a delivery). */
  saveAutomation(automation: StoredAutomation): void {
    if (!this.automations.has(automation.id)) return;
    // A new rule goes after the last one ever placed: positions never repeat, so the order a restart reads is the order it had.
    this.sql(
      `INSERT INTO automations (id, position, record) VALUES (?, (SELECT coalesce(max(position), -1) + 1 FROM automations), ?)
       ON CONFLICT (id) DO UPDATE SET record = excluded.record`,
    ).run(automation.id, JSON.stringify(automation));
  }

  deleteAutomation(id: string): boolean {
    if (!this.automations.delete(id)) return false;
    this.sql('DELETE FROM automations WHERE id = ?').run(id);
    return true;
  }
}


function toEmail(row: EmailRow): StoredEmail {
  const createdAt = new Date(row.created_at);
  const attachments = (JSON.parse(row.attachments) as Omit<StoredAttachment, 'createdAt'>[]).map((a) => ({ ...a, createdAt }));
  return {
    id: row.id,
    sender: { id: row.s_id, display_name: row.s_name, email: row.sender, created_at: new Date(row.s_created), updated_at: new Date(row.s_updated) },
    inbox: { id: row.i_id, display_name: row.i_name, email: row.inbox, created_at: new Date(row.i_created), updated_at: new Date(row.i_updated) },
    carbonCopies: JSON.parse(row.carbon_copies) as StoredEmail['carbonCopies'],
    subject: row.subject,
    createdAt,
    read: row.read_at === null ? null : new Date(row.read_at),
    favorite: row.favorite === 1,
    hasHtml: row.has_html === 1,
    hasText: row.has_text === 1,
    size: row.size,
    attachments,
    delivery: row.delivery ?? row.seq,
  };
}


