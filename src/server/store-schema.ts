/**
 * The store's SQLite schema (one team's database), and the migrations an
 * older file needs. TeamStore runs them when it opens a database.
 */
import type { DatabaseSync } from 'node:sqlite';

export const SCHEMA = `
CREATE TABLE IF NOT EXISTS addresses (
  email TEXT PRIMARY KEY,
  id TEXT NOT NULL,
  display_name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS emails (
  -- AUTOINCREMENT: a row number is never used twice. The search index follows
  -- rows by number (indexed_up_to); a reused one was never indexed, and
  -- deleting it then damaged the index.
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  inbox TEXT NOT NULL,
  sender TEXT NOT NULL,
  subject TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  read_at INTEGER,
  favorite INTEGER NOT NULL DEFAULT 0,
  has_html INTEGER NOT NULL,
  has_text INTEGER NOT NULL,
  size INTEGER NOT NULL,
  carbon_copies TEXT NOT NULL,
  attachments TEXT NOT NULL,
  -- What search compares: subject, sender and inbox case-folded (case-fold.ts), so that the
  -- index and a scan fold every letter alike (SQLite's lower() folds ASCII only).
  folded_subject TEXT NOT NULL DEFAULT '',
  folded_sender TEXT NOT NULL DEFAULT '',
  folded_inbox TEXT NOT NULL DEFAULT '',
  -- The delivery a row came in with (one SMTP message to To, Cc and Bcc is a row per recipient):
  -- the first row's seq on the others, NULL on the first (its own seq is its delivery).
  delivery INTEGER
);
-- Ascending, though the list reads newest first (backwards, the ties on id sorted in
-- passing): new mail lands at an index's end, where a full page splits off cheaply. Kept
-- descending, every arrival split the first page: 2.7 pages written a group commit of 8
-- instead of 1.4, in each of the two (ascendingArrivalIndexes).
CREATE INDEX IF NOT EXISTS emails_newest ON emails (created_at, id);
CREATE INDEX IF NOT EXISTS emails_inbox ON emails (inbox, created_at DESC, id);
CREATE INDEX IF NOT EXISTS emails_sender ON emails (sender, created_at DESC, id);
CREATE INDEX IF NOT EXISTS emails_unread ON emails (created_at, id) WHERE read_at IS NULL;
CREATE INDEX IF NOT EXISTS emails_favorite ON emails (created_at DESC, id) WHERE favorite = 1;
CREATE INDEX IF NOT EXISTS emails_delivery ON emails (coalesce(delivery, seq));
CREATE TABLE IF NOT EXISTS contents (
  seq INTEGER PRIMARY KEY,
  raw BLOB NOT NULL,
  html TEXT,
  text TEXT
);
-- Over text folded already: the tokenizer compares it as it is.
CREATE VIRTUAL TABLE IF NOT EXISTS email_search USING fts5 (
  folded_subject, folded_sender, folded_inbox, content = 'emails', content_rowid = 'seq', tokenize = 'trigram case_sensitive 1'
);
-- New mail joins the search index in batches (indexPending): a full-text
-- segment per message would cost more than the rest of an ingest together.
CREATE TABLE IF NOT EXISTS search_state (id INTEGER PRIMARY KEY CHECK (id = 1), indexed_up_to INTEGER NOT NULL);
INSERT OR IGNORE INTO search_state VALUES (1, 0);
CREATE TRIGGER IF NOT EXISTS emails_removed AFTER DELETE ON emails BEGIN
  DELETE FROM contents WHERE seq = old.seq;
END;
CREATE TRIGGER IF NOT EXISTS emails_unindexed AFTER DELETE ON emails WHEN old.seq <= (SELECT indexed_up_to FROM search_state) BEGIN
  INSERT INTO email_search (email_search, rowid, folded_subject, folded_sender, folded_inbox) VALUES ('delete', old.seq, old.folded_subject, old.folded_sender, old.folded_inbox);
END;
CREATE TABLE IF NOT EXISTS stats (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  total INTEGER NOT NULL,
  unread INTEGER NOT NULL,
  favorite INTEGER NOT NULL
);
INSERT OR IGNORE INTO stats SELECT 1, count(*), coalesce(sum(read_at IS NULL), 0), coalesce(sum(favorite), 0) FROM emails;
-- Arrivals are counted by the store, once a transaction (TeamStore.countArrivals): a
-- trigger's UPDATE for every row cost 4 µs a message, a tenth of the store's share of ingest.
DROP TRIGGER IF EXISTS stats_added;
CREATE TRIGGER IF NOT EXISTS stats_removed AFTER DELETE ON emails BEGIN
  UPDATE stats SET total = total - 1, unread = unread - (old.read_at IS NULL), favorite = favorite - old.favorite;
END;
CREATE TRIGGER IF NOT EXISTS stats_marked AFTER UPDATE OF read_at, favorite ON emails BEGIN
  UPDATE stats SET unread = unread + (new.read_at IS NULL) - (old.read_at IS NULL), favorite = favorite + new.favorite - old.favorite;
END;
-- Mailpit's tags, on a delivery (a message as it was sent: its first row's seq). A name is one
-- tag whatever its case. A delivery's tags go with its last row.
CREATE TABLE IF NOT EXISTS message_tags (
  delivery INTEGER NOT NULL,
  tag TEXT NOT NULL COLLATE NOCASE,
  PRIMARY KEY (delivery, tag)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS message_tags_by_tag ON message_tags (tag);
CREATE TRIGGER IF NOT EXISTS emails_untagged AFTER DELETE ON emails
  WHEN EXISTS (SELECT 1 FROM message_tags WHERE delivery = coalesce(old.delivery, old.seq))
   AND NOT EXISTS (SELECT 1 FROM emails WHERE coalesce(delivery, seq) = coalesce(old.delivery, old.seq)) BEGIN
  DELETE FROM message_tags WHERE delivery = coalesce(old.delivery, old.seq);
END;
CREATE TABLE IF NOT EXISTS automations (
  id TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  record TEXT NOT NULL
);
`;

/**
 * A database written before emails' row numbers were AUTOINCREMENT is
 * rebuilt once: the table copied into one that never reuses a number, and the
 * search index built again from it (it may be damaged already).
 */
export function reuseNoRowNumbers(db: DatabaseSync): void {
  const table = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'emails'").get() as { sql: string } | undefined;
  if (!table || /AUTOINCREMENT/i.test(table.sql)) return;
  db.exec('BEGIN');
  try {
    db.exec('ALTER TABLE emails RENAME TO emails_reused');
    db.exec(`${table.sql.replace(/CREATE TABLE\s+(?:IF NOT EXISTS\s+)?"?emails"?/i, 'CREATE TABLE emails').replace(/seq INTEGER PRIMARY KEY\b(?! AUTOINCREMENT)/i, 'seq INTEGER PRIMARY KEY AUTOINCREMENT')}`);
    db.exec('INSERT INTO emails SELECT * FROM emails_reused');
    // Dropping the old table drops its indexes and triggers; SCHEMA makes them again.
    db.exec('DROP TABLE emails_reused');
    db.exec('DROP TABLE IF EXISTS email_search; DROP TABLE IF EXISTS search_state');
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** A database written when the list's two arrival indexes were descending drops them; SCHEMA makes them ascending. */
export function ascendingArrivalIndexes(db: DatabaseSync): void {
  const descending = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name IN ('emails_newest', 'emails_unread') AND sql LIKE '%DESC%'").all() as { name: string }[];
  for (const { name } of descending) db.exec(`DROP INDEX ${name}`);
}

/** A database written before deliveries were recorded gets the column: each row of it is a delivery of its own. */
export function addDeliveryColumn(db: DatabaseSync): void {
  const columns = db.prepare("SELECT name FROM pragma_table_info('emails')").all() as { name: string }[];
  if (columns.length === 0 || columns.some((column) => column.name === 'delivery')) return;
  db.exec('ALTER TABLE emails ADD COLUMN delivery INTEGER');
}

/**
 * A database written before search folded case (case-fold.ts) gets the folded
 * columns, filled by the `fold_case` SQL function, and its search index is
 * built again over them; SCHEMA then makes the index, its trigger and its state.
 */
export function addFoldedColumns(db: DatabaseSync): void {
  const columns = db.prepare("SELECT name FROM pragma_table_info('emails')").all() as { name: string }[];
  if (columns.length === 0 || columns.some((column) => column.name === 'folded_subject')) return;
  db.exec('BEGIN');
  try {
    for (const column of ['folded_subject', 'folded_sender', 'folded_inbox']) db.exec(`ALTER TABLE emails ADD COLUMN ${column} TEXT NOT NULL DEFAULT ''`);
    db.exec('UPDATE emails SET folded_subject = fold_case(subject), folded_sender = fold_case(sender), folded_inbox = fold_case(inbox)');
    db.exec('DROP TRIGGER IF EXISTS emails_unindexed; DROP TABLE IF EXISTS email_search; DROP TABLE IF EXISTS search_state');
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}
