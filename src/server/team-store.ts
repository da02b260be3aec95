import { randomUUID } from 'node:crypto';
import type { AutomationInput } from '../shared/domain/automation.ts';
import { sizeForHuman } from '../shared/domain/size.ts';
import { serviceTimestamp, zonelessTimestamp } from '../shared/domain/time.ts';
import { uuidFromName } from './ids.ts';
import { wildcardMatch } from './wildcard.ts';
import type { ParsedAttachment, ParsedMessage } from './ingest.ts';

/**
 * One team's data, in memory: emails, the addresses they name, automations.
 * Holds no HTTP: routes and the automation runner use it.
 */

export interface StoredAddress {
  id: string;
  display_name: string;
  email: string;
  created_at: Date;
  updated_at: Date;
}

export interface StoredAttachment extends ParsedAttachment {
  id: string;
  createdAt: Date;
}

export interface StoredEmail {
  id: string;
  raw: Buffer;
  sender: StoredAddress;
  inbox: StoredAddress;
  carbonCopies: { display_name: string; email: string }[];
  subject: string;
  createdAt: Date;
  read: Date | null;
  favorite: boolean;
  html: string | null;
  text: string | null;
  attachments: StoredAttachment[];
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


export class TeamStore {
  readonly emails = new Map<string, StoredEmail>();
  readonly automations = new Map<string, StoredAutomation>();
  private readonly addresses = new Map<string, StoredAddress>();
  /** Sorted newest first; rebuilt lazily after a change. */
  private sorted: StoredEmail[] | null = null;

  readonly id: string;

  constructor(id: string) {
    this.id = id;
  }

  address(email: string, displayName: string, at: Date): StoredAddress {
    const key = email.toLowerCase();
    let address = this.addresses.get(key);
    if (!address) {
      address = { id: uuidFromName(`${this.id}:address:${key}`), display_name: displayName, email: key, created_at: at, updated_at: at };
      this.addresses.set(key, address);
    } else if (displayName && !address.display_name) {
      address.display_name = displayName;
      address.updated_at = at;
    }
    return address;
  }

  knowsAddress(email: string): boolean {
    return this.addresses.has(email.toLowerCase());
  }

  addEmail(
    raw: Buffer,
    parsed: ParsedMessage,
    options: { inbox: string; createdAt: Date; id?: string; read?: Date | null; favorite?: boolean },
  ): StoredEmail {
    const createdAt = options.createdAt;
    const inboxName = parsed.to.find((to) => to.address === options.inbox.toLowerCase())?.name ?? '';
    const id = options.id ?? randomUUID();
    const email: StoredEmail = {
      id,
      raw,
      sender: this.address(parsed.sender.address, parsed.sender.name, createdAt),
      inbox: this.address(options.inbox, inboxName, createdAt),
      carbonCopies: parsed.cc.map((cc) => ({ display_name: cc.name, email: cc.address })),
      subject: parsed.subject,
      createdAt,
      read: options.read ?? null,
      favorite: options.favorite ?? false,
      html: parsed.html,
      text: parsed.text,
      attachments: parsed.attachments.map((attachment, index) => ({
        ...attachment,
        id: uuidFromName(`${id}:attachment:${index}`),
        createdAt,
      })),
    };
    this.emails.set(email.id, email);
    this.sorted = null;
    return email;
  }

  deleteEmail(id: string): boolean {
    const deleted = this.emails.delete(id);
    if (deleted) this.sorted = null;
    return deleted;
  }

  /** Newest first; ties broken by id so pages are stable. */
  newestFirst(): StoredEmail[] {
    this.sorted ??= [...this.emails.values()].sort(
      (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    return this.sorted;
  }

  query(filters: ListFilters): StoredEmail[] {
    const subject = filters.subject;
    const search = filters.search?.toLowerCase();
    const inbox = filters.inbox?.toLowerCase();
    const sender = filters.sender?.toLowerCase();
    return this.newestFirst().filter(
      (email) =>
        (inbox === undefined || email.inbox.email === inbox) &&
        (sender === undefined || email.sender.email === sender) &&
        (subject === undefined || wildcardMatch(subject, email.subject)) &&
        (filters.since === undefined || email.createdAt > filters.since) &&
        (filters.until === undefined || email.createdAt < filters.until) &&
        (!filters.unread || email.read === null) &&
        (!filters.favorite || email.favorite) &&
        (search === undefined ||
          email.inbox.email.includes(search) ||
          email.sender.email.includes(search) ||
          email.subject.toLowerCase().includes(search)),
    );
  }

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
    return automation;
  }
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
    has_html: email.html !== null,
    has_text: email.text !== null,
    size_in_bytes: email.raw.length,
    attachments: email.attachments.map((attachment) => ({
      id: attachment.id,
      email_id: email.id,
      headers_hashed: attachment.headersHashed,
      file_name: attachment.fileName,
      content_type: attachment.contentType,
      size_in_bytes: attachment.content.length,
      created_at: zonelessTimestamp(attachment.createdAt),
      updated_at: zonelessTimestamp(attachment.createdAt),
      size_for_human: sizeForHuman(attachment.content.length),
    })),
  };
}
export type EmailResource = ReturnType<typeof emailResource>;
