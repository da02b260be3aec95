import { randomUUID } from 'node:crypto';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { AutomationInput } from '../shared/domain/automation.ts';
import { sizeForHuman } from '../shared/domain/size.ts';
import { serviceTimestamp, zonelessTimestamp } from '../shared/domain/time.ts';
import { uuidFromName } from './ids.ts';
import { wildcardMatch } from './wildcard.ts';
import type { ParsedMessage } from './ingest.ts';

/**
 * One team's data in SQLite (node:sqlite, no native build): a file in WAL mode
 * under `--data`, or an in-memory database for tests and the demo. The list's
 * order and filters are indexed, `search` uses a trigram full-text index, and
 * bodies and raw messages stay on disk until a request asks for them. Nothing
 * here speaks HTTP: the routes and the automation runner use it.
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
}

export interface EmailPage {
  emails: StoredEmail[];
  total: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS addresses (
  email TEXT PRIMARY KEY,
  id TEXT NOT NULL,
  display_name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS emails (
  seq INTEGER PRIMARY KEY,
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
  attachments TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS emails_newest ON emails (created_at DESC, id);
CREATE INDEX IF NOT EXISTS emails_inbox ON emails (inbox, created_at DESC, id);
CREATE INDEX IF NOT EXISTS emails_sender ON emails (sender, created_at DESC, id);
CREATE INDEX IF NOT EXISTS emails_unread ON emails (created_at DESC, id) WHERE read_at IS NULL;
CREATE INDEX IF NOT EXISTS emails_favorite ON emails (created_at DESC, id) WHERE favorite = 1;
CREATE TABLE IF NOT EXISTS contents (
  seq INTEGER PRIMARY KEY,
  raw BLOB NOT NULL,
  html TEXT,
  text TEXT
);
CREATE VIRTUAL TABLE IF NOT EXISTS email_search USING fts5 (
  subject, sender, inbox, content = 'emails', content_rowid = 'seq', tokenize = 'trigram'
);
CREATE TRIGGER IF NOT EXISTS emails_indexed AFTER INSERT ON emails BEGIN
  INSERT INTO email_search (rowid, subject, sender, inbox) VALUES (new.seq, new.subject, new.sender, new.inbox);
END;
CREATE TRIGGER IF NOT EXISTS emails_unindexed AFTER DELETE ON emails BEGIN
  INSERT INTO email_search (email_search, rowid, subject, sender, inbox) VALUES ('delete', old.seq, old.subject, old.sender, old.inbox);
  DELETE FROM contents WHERE seq = old.seq;
END;
CREATE TABLE IF NOT EXISTS automations (
  id TEXT PRIMARY KEY,
  position INTEGER NOT NULL,
  record TEXT NOT NULL
);
`;

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

/** A phrase for the trigram index: matches the term anywhere, case-insensitively. */
function searchPhrase(term: string): string {
  return `"${term.replace(/"/g, '""')}"`;
}

export class TeamStore {
  readonly id: string;
  /** Few and read on every ingest: kept in memory, written through. */
  readonly automations = new Map<string, StoredAutomation>();
  private readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();

  /** `file` is a database path; without one the team lives in memory. */
  constructor(id: string, file?: string) {
    this.id = id;
    this.db = new DatabaseSync(file ?? ':memory:');
    // WAL with NORMAL sync: a change is one small append, durable across a crash of the process.
    this.db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA temp_store = MEMORY;');
    this.db.exec(SCHEMA);
    this.db.function('wildcard_match', { deterministic: true }, (pattern, text) =>
      wildcardMatch(String(pattern), String(text)) ? 1 : 0,
    );
    const rows = this.sql('SELECT record FROM automations ORDER BY position').all() as { record: string }[];
    for (const { record } of rows) {
      const a = JSON.parse(record) as StoredAutomation & { created_at: string; updated_at: string };
      this.automations.set(a.id, { ...a, action_email: a.action_email ?? null, created_at: new Date(a.created_at), updated_at: new Date(a.updated_at) });
    }
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
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
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  // ---- addresses ---------------------------------------------------------

  private address(email: string, displayName: string, at: Date): void {
    const key = email.toLowerCase();
    const known = this.sql('SELECT display_name FROM addresses WHERE email = ?').get(key) as { display_name: string } | undefined;
    if (!known) {
      this.sql('INSERT INTO addresses (email, id, display_name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(
        key,
        uuidFromName(`${this.id}:address:${key}`),
        displayName,
        at.getTime(),
        at.getTime(),
      );
    } else if (displayName && !known.display_name) {
      this.sql('UPDATE addresses SET display_name = ?, updated_at = ? WHERE email = ?').run(displayName, at.getTime(), key);
    }
  }

  knowsAddress(email: string): boolean {
    return this.sql('SELECT 1 FROM addresses WHERE email = ?').get(email.toLowerCase()) !== undefined;
  }

  // ---- emails ------------------------------------------------------------

  addEmail(
    raw: Buffer,
    parsed: ParsedMessage,
    options: { inbox: string; createdAt: Date; id?: string; read?: Date | null; favorite?: boolean },
  ): StoredEmail {
    const createdAt = options.createdAt;
    const inbox = options.inbox.toLowerCase();
    const inboxName = parsed.to.find((to) => to.address === inbox)?.name ?? '';
    const id = options.id ?? randomUUID();
    const attachments = parsed.attachments.map((attachment, index) => ({
      id: uuidFromName(`${id}:attachment:${index}`),
      fileName: attachment.fileName,
      contentType: attachment.contentType,
      size: attachment.content.length,
      headersHashed: attachment.headersHashed,
    }));
    this.transaction(() => {
      this.address(parsed.sender.address, parsed.sender.name, createdAt);
      this.address(inbox, inboxName, createdAt);
      const { lastInsertRowid } = this.sql(
        `INSERT INTO emails (id, inbox, sender, subject, created_at, read_at, favorite, has_html, has_text, size, carbon_copies, attachments)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        inbox,
        parsed.sender.address.toLowerCase(),
        parsed.subject,
        createdAt.getTime(),
        options.read ? options.read.getTime() : null,
        options.favorite ? 1 : 0,
        parsed.html !== null ? 1 : 0,
        parsed.text !== null ? 1 : 0,
        raw.length,
        JSON.stringify(parsed.cc.map((cc) => ({ display_name: cc.name, email: cc.address }))),
        JSON.stringify(attachments),
      );
      this.sql('INSERT INTO contents (seq, raw, html, text) VALUES (?, ?, ?, ?)').run(lastInsertRowid, raw, parsed.html, parsed.text);
    });
    return this.getEmail(id)!;
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
    return (this.sql('SELECT count(*) AS n FROM emails').get() as { n: number }).n;
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
    if (filters.unread) where.push('e.read_at IS NULL');
    if (filters.favorite) where.push('e.favorite = 1');
    if (filters.search !== undefined) {
      const term = filters.search.toLowerCase();
      // The trigram index needs three characters; shorter terms scan.
      if ([...term].length >= 3) {
        where.push('e.seq IN (SELECT rowid FROM email_search WHERE email_search MATCH ?)');
        values.push(searchPhrase(term));
      } else {
        where.push('(instr(e.inbox, ?) OR instr(e.sender, ?) OR instr(lower(e.subject), ?))');
        values.push(term, term, term);
      }
    }
    const clause = where.length > 0 ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.sql(`SELECT count(*) AS n FROM emails e ${clause}`).get(...values) as { n: number }).n;
    if (limit === 0 || offset >= total) return { emails: [], total };
    const rows = this.sql(`SELECT ${EMAIL_COLUMNS} ${clause} ORDER BY e.created_at DESC, e.id LIMIT ? OFFSET ?`).all(
      ...values,
      limit,
      offset,
    ) as unknown as EmailRow[];
    return { emails: rows.map(toEmail), total };
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
    const position = [...this.automations.keys()].indexOf(automation.id);
    this.sql('INSERT INTO automations (id, position, record) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET record = excluded.record').run(
      automation.id,
      position,
      JSON.stringify(automation),
    );
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
  };
}

function addressResource(address: StoredAddress) {
  return {
    id: address.id,
    display_name: address.display_name,
    email: address.email,
    created_at: serviceTimestamp(address.created_at),
    updated_at: serviceTimestamp(address.updated_at),
  };
}

/** The Email resource exactly as the API answers it (seed 2.1). */
export function emailResource(email: StoredEmail) {
  return {
    id: email.id,
    sender: addressResource(email.sender),
    inbox: addressResource(email.inbox),
    carbon_copies: email.carbonCopies,
    subject: email.subject,
    created_at: serviceTimestamp(email.createdAt),
    read: email.read ? serviceTimestamp(email.read) : null,
    favorite: email.favorite,
    has_html: email.hasHtml,
    has_text: email.hasText,
    size_in_bytes: email.size,
    attachments: email.attachments.map((attachment) => ({
      id: attachment.id,
      email_id: email.id,
      headers_hashed: attachment.headersHashed,
      file_name: attachment.fileName,
      content_type: attachment.contentType,
      size_in_bytes: attachment.size,
      created_at: zonelessTimestamp(attachment.createdAt),
      updated_at: zonelessTimestamp(attachment.createdAt),
      size_for_human: sizeForHuman(attachment.size),
    })),
  };
}
export type EmailResource = ReturnType<typeof emailResource>;
