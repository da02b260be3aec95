import { mkdirSync } from 'node:fs';
import { readdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { validateAutomationInput } from '../shared/domain/automation.ts';
import type { FlavorName } from '../shared/flavors/index.ts';
import { serverWire } from './flavors/index.ts';
import { uuidFromName } from './ids.ts';
import { ChaosState } from './chaos.ts';
import { RelayState } from './relay.ts';
import { parseMessage, type ParsedMessage } from './ingest.ts';
import { tagsInHeader } from './message-tags.ts';
import { TeamStore, type StoredAutomation, type StoredContent, type StoredEmail } from './team-store.ts';
import { runAutomations, type AutomationOutcome } from './webhooks.ts';

export interface TeamConfig {
  id: string;
  token: string;
}

export interface ServiceOptions {
  teams: TeamConfig[];
  /** Folder with persisted state; without it everything lives in memory. */
  dataDir?: string;
  webhookTimeoutMs?: number;
  /** Deliver webhooks to loopback, private and link-local addresses (off: refused). */
  allowPrivateWebhooks?: boolean;
  /** SpamAssassin's spamd (host:port), for the catcher's sa-check. */
  spamd?: string;
  /** How webhooks look and when matched mail is deleted (flavors/). */
  flavor?: FlavorName;
  /** Parses incoming mail (parse-pool.ts puts it on a thread); in place by default. */
  parse?: (raw: Buffer) => Promise<ParsedMessage>;
  /** What a catcher keeps: the newest `keep` emails, and none older than `days` (Mailpit keeps 500). */
  retention?: Retention;
}

export interface Retention {
  keep?: number;
  days?: number;
}

/** Live mail stored: its team and its emails (one per recipient). */
export type ArrivalListener = (teamId: string, emails: StoredEmail[]) => void;

/** What `--data` folders held before SQLite: state.json and one .eml per email. */
interface LegacyState {
  emails: { id: string; inbox: string; createdAt: string; read: string | null; favorite: boolean }[];
  automations: (Omit<StoredAutomation, 'created_at' | 'updated_at'> & { created_at: string; updated_at: string })[];
}

/**
 * The service's data and behaviour without HTTP: teams and their tokens,
 * ingestion of raw mail, automations, persistence.
 */
export class ReferenceService {
  readonly teams = new Map<string, TeamStore>();
  private readonly tokens = new Map<string, string>();
  private readonly pendingAutomations = new Set<Promise<unknown>>();

  private readonly options: ServiceOptions;
  private readonly arrivals = new Set<ArrivalListener>();
  /** What its SMTP answers on purpose (chaos.ts): off unless set. */
  readonly chaos = new ChaosState();
  /** Where Release sends a caught email on to (relay.ts): off unless set. */
  readonly relay = new RelayState();

  /** Whether webhooks and the catcher's link check may reach this machine and private networks. */
  get allowsPrivateTargets(): boolean {
    return this.options.allowPrivateWebhooks === true;
  }

  /** SpamAssassin's spamd, when one was given (--spamd, or the app's setting for This computer). */
  get spamd(): string | undefined {
    return this.spamdAddress;
  }

  /** Sets (or, with undefined, forgets) the spamd the catcher's sa-check asks. */
  setSpamd(address: string | undefined): void {
    this.spamdAddress = address || undefined;
  }

  private spamdAddress: string | undefined;

  /** Tells `listener` of each live arrival, as soon as it is stored; answers how to stop. */
  onArrival(listener: ArrivalListener): () => void {
    this.arrivals.add(listener);
    return () => this.arrivals.delete(listener);
  }

  private readonly pruneQueued = new Set<string>();

  /**
   * The retention after a group commit's arrivals: once for all of them, after the last is
   * handed back and before any is answered (a microtask), not a count and a delete each.
   */
  private pruneOnceForBatch(teamId: string): void {
    if (this.pruneQueued.has(teamId)) return;
    this.pruneQueued.add(teamId);
    queueMicrotask(() => {
      this.pruneQueued.delete(teamId);
      try {
        this.prune(teamId);
      } catch (error) {
        // Never the end of the catcher (the store closing under it, a full disk): the next arrival prunes again.
        console.error(`Inbox Desk: the retention could not run: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  }

  /** Applies the retention to a team (after arrivals, at start, and hourly for the days). */
  prune(teamId = this.defaultTeamId): number {
    const { keep, days } = this.options.retention ?? {};
    if (keep === undefined && days === undefined) return 0;
    return this.team(teamId).prune({ keep, olderThan: days === undefined ? undefined : new Date(Date.now() - days * 86_400_000) });
  }

  constructor(options: ServiceOptions) {
    this.options = options;
    this.spamdAddress = options.spamd;
    for (const team of options.teams) {
      const dir = this.teamDir(team.id);
      if (dir) mkdirSync(dir, { recursive: true });
      this.teams.set(team.id, new TeamStore(team.id, dir ? join(dir, 'mail.sqlite') : undefined));
      this.tokens.set(team.token, team.id);
    }
  }

  /** The team a bearer token belongs to, or null. */
  teamForToken(token: string): string | null {
    return this.tokens.get(token) ?? null;
  }

  team(id: string): TeamStore {
    const team = this.teams.get(id);
    if (!team) throw new Error(`unknown team ${id}`);
    return team;
  }

  /** Every team's mail, counted. */
  totalEmails(): number {
    let total = 0;
    for (const team of this.teams.values()) total += team.count();
    return total;
  }

  get defaultTeamId(): string {
    const first = this.options.teams[0];
    if (!first) throw new Error('the service needs at least one team');
    return first.id;
  }

  /**
   * Takes a raw message in. One email per recipient inbox (the SMTP envelope's
   * RCPT TO, or the To header). Seeded mail keeps its Date header and skips
   * automations; live mail takes the arrival time and runs them.
   */
  async ingest(
    raw: Buffer,
    options: { teamId?: string; recipients?: string[]; seeded?: boolean; idSeed?: string } = {},
  ): Promise<StoredEmail[]> {
    const team = this.team(options.teamId ?? this.defaultTeamId);
    const parsed = await (this.options.parse ?? parseMessage)(raw);
    const recipients = options.recipients?.length
      ? options.recipients.map((r) => r.toLowerCase())
      : parsed.to.slice(0, 1).map((to) => to.address);
    if (recipients.length === 0) recipients.push('undisclosed-recipients@invalid');
    const createdAt = options.seeded ? (parsed.date ?? new Date()) : new Date();
    // Seeds run one after another before the service listens: nothing to group.
    const commit = <T>(work: () => T): Promise<T> => (options.seeded ? Promise.resolve(team.transaction(work)) : team.inNextCommit(work));
    // Mailpit's tags from the message's X-Tags header (a sender's way to label its mail).
    const tags = tagsInHeader(raw);
    // One delivery: the rows after the first carry its number, so a catcher lists the message once.
    const stored = await commit(() => {
      const rows: StoredEmail[] = [];
      for (const inbox of recipients) {
        rows.push(
          team.addEmail(raw, parsed, {
            inbox,
            createdAt,
            id: options.idSeed ? uuidFromName(`${options.idSeed}:${inbox}`) : undefined,
            names: serverWire(this.options.flavor).record.addressNames,
            ...(rows[0] ? { delivery: rows[0].delivery } : {}),
          }),
        );
      }
      if (tags.length > 0) team.setTags(rows[0]!.delivery, tags);
      return rows;
    });
    if (!options.seeded) {
      this.pruneOnceForBatch(team.id);
      for (const listener of this.arrivals) listener(team.id, stored);
    }
    if (!options.seeded && team.automations.size > 0) {
      const content = { raw, html: parsed.html, text: parsed.text };
      for (const email of stored) {
        const run = this.runAutomationsFor(team, email, content);
        this.pendingAutomations.add(run);
        void run.finally(() => this.pendingAutomations.delete(run));
      }
    }
    return stored;
  }

  private runAutomationsFor(team: TeamStore, email: StoredEmail, content: StoredContent): Promise<AutomationOutcome[]> {
    return runAutomations(team.automations.values(), email, content, {
      timeoutMs: this.options.webhookTimeoutMs ?? 10_000,
      allowPrivate: this.allowsPrivateTargets,
      flavor: serverWire(this.options.flavor),
      onChange: (automation) => team.saveAutomation(automation),
      deleteEmail: (id) => team.deleteEmail(id),
    });
  }

  /** Resolves once every automation run started so far has finished. */
  async settled(): Promise<void> {
    while (this.pendingAutomations.size > 0) await Promise.allSettled([...this.pendingAutomations]);
  }

  close(): void {
    for (const team of this.teams.values()) team.close();
  }

  /** Settles once every store's thread has ended, after close(). */
  async closed(): Promise<void> {
    await Promise.all([...this.teams.values()].map((team) => team.closed()));
  }

  /** Loads `*.eml` (and an optional `automations.json`) from a folder into a team. */
  async seedFrom(folder: string, teamId = this.defaultTeamId): Promise<number> {
    const names = (await readdir(folder)).filter((n) => n.endsWith('.eml')).sort();
    for (const name of names) {
      await this.ingest(await readFile(join(folder, name)), { teamId, seeded: true, idSeed: `${teamId}/${name}` });
    }
    const automationsFile = join(folder, 'automations.json');
    const raw = await readFile(automationsFile, 'utf8').catch(() => null);
    if (raw !== null) {
      for (const body of JSON.parse(raw) as unknown[]) {
        const checked = validateAutomationInput(body);
        if (!checked.ok) throw new Error(`${automationsFile}: ${JSON.stringify(checked.errors)}`);
        this.team(teamId).createAutomation(checked.value);
      }
    }
    return names.length;
  }

  // ---- persistence ------------------------------------------------------

  private teamDir(teamId: string): string | null {
    return this.options.dataDir ? join(this.options.dataDir, encodeURIComponent(teamId)) : null;
  }

  /**
   * Opens a team's persisted data; answers false when it has none yet. A
   * folder from before SQLite (state.json and .eml files) is imported once,
   * in one transaction, and its state.json is renamed to state.json.migrated.
   */
  async load(teamId: string): Promise<boolean> {
    const team = this.team(teamId);
    const dir = this.teamDir(teamId);
    if (!dir) return false;
    const legacyFile = join(dir, 'state.json');
    const text = await readFile(legacyFile, 'utf8').catch(() => null);
    if (text !== null && team.count() === 0 && team.automations.size === 0) {
      const state = JSON.parse(text) as LegacyState;
      const messages = await Promise.all(
        state.emails.map(async (entry) => {
          const raw = await readFile(join(dir, 'emails', `${entry.id}.eml`));
          return { entry, raw, parsed: await parseMessage(raw) };
        }),
      );
      team.transaction(() => {
        for (const { entry, raw, parsed } of messages) {
          team.addEmail(raw, parsed, {
            id: entry.id,
            inbox: entry.inbox,
            createdAt: new Date(entry.createdAt),
            read: entry.read ? new Date(entry.read) : null,
            favorite: entry.favorite,
          });
        }
        for (const a of state.automations) {
          const automation = { ...a, action_email: a.action_email ?? null, created_at: new Date(a.created_at), updated_at: new Date(a.updated_at) };
          team.automations.set(a.id, automation);
          team.saveAutomation(automation);
        }
      });
      await rename(legacyFile, `${legacyFile}.migrated`);
    }
    return team.count() > 0 || team.automations.size > 0;
  }
}
