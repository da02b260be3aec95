import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validateAutomationInput } from '../shared/domain/automation.ts';
import type { FlavorName } from '../shared/domain/flavor.ts';
import { SERVER_FLAVORS } from './flavors.ts';
import { uuidFromName } from './ids.ts';
import { parseMessage } from './ingest.ts';
import { TeamStore, type StoredAutomation, type StoredEmail } from './team-store.ts';
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
  /** How webhooks look and when matched mail is deleted (flavors.ts). */
  flavor?: FlavorName;
}

interface PersistedState {
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
  private saveChain: Promise<void> = Promise.resolve();

  private readonly options: ServiceOptions;

  constructor(options: ServiceOptions) {
    this.options = options;
    for (const team of options.teams) {
      this.teams.set(team.id, new TeamStore(team.id));
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
    const parsed = await parseMessage(raw);
    const recipients = options.recipients?.length
      ? options.recipients.map((r) => r.toLowerCase())
      : parsed.to.slice(0, 1).map((to) => to.address);
    if (recipients.length === 0) recipients.push('undisclosed-recipients@invalid');
    const createdAt = options.seeded ? (parsed.date ?? new Date()) : new Date();
    const stored = recipients.map((inbox) =>
      team.addEmail(raw, parsed, {
        inbox,
        createdAt,
        id: options.idSeed ? uuidFromName(`${options.idSeed}:${inbox}`) : undefined,
      }),
    );
    await this.writeRaw(team.id, stored);
    this.scheduleSave(team.id);
    if (!options.seeded) {
      for (const email of stored) {
        const run = this.runAutomationsFor(team, email);
        this.pendingAutomations.add(run);
        void run.finally(() => this.pendingAutomations.delete(run));
      }
    }
    return stored;
  }

  private runAutomationsFor(team: TeamStore, email: StoredEmail): Promise<AutomationOutcome[]> {
    return runAutomations(team.automations.values(), email, {
      timeoutMs: this.options.webhookTimeoutMs ?? 10_000,
      allowPrivate: this.options.allowPrivateWebhooks === true,
      flavor: SERVER_FLAVORS[this.options.flavor ?? 'service-v1'],
      onChange: () => this.scheduleSave(team.id),
      deleteEmail: (id) => {
        team.deleteEmail(id);
        this.scheduleSave(team.id);
      },
    });
  }

  /** Resolves once every automation run started so far has finished. */
  async settled(): Promise<void> {
    while (this.pendingAutomations.size > 0) await Promise.allSettled([...this.pendingAutomations]);
    await this.saveChain;
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
    this.scheduleSave(teamId);
    return names.length;
  }

  // ---- persistence ------------------------------------------------------

  private teamDir(teamId: string): string | null {
    return this.options.dataDir ? join(this.options.dataDir, encodeURIComponent(teamId)) : null;
  }

  private async writeRaw(teamId: string, emails: StoredEmail[]): Promise<void> {
    const dir = this.teamDir(teamId);
    if (!dir) return;
    await mkdir(join(dir, 'emails'), { recursive: true });
    for (const email of emails) await writeFile(join(dir, 'emails', `${email.id}.eml`), email.raw);
  }

  /** Saves are serialised, and each one writes a temp file then renames it. */
  scheduleSave(teamId: string): void {
    const dir = this.teamDir(teamId);
    if (!dir) return;
    this.saveChain = this.saveChain.then(async () => {
      const team = this.team(teamId);
      const state: PersistedState = {
        emails: [...team.emails.values()].map((e) => ({
          id: e.id,
          inbox: e.inbox.email,
          createdAt: e.createdAt.toISOString(),
          read: e.read?.toISOString() ?? null,
          favorite: e.favorite,
        })),
        automations: [...team.automations.values()].map((a) => ({
          ...a,
          created_at: a.created_at.toISOString(),
          updated_at: a.updated_at.toISOString(),
        })),
      };
      await mkdir(dir, { recursive: true });
      const file = join(dir, 'state.json');
      await writeFile(`${file}.tmp`, JSON.stringify(state));
      await rename(`${file}.tmp`, file);
    });
  }

  /** Loads persisted state; answers false for teams that have none yet. */
  async load(teamId: string): Promise<boolean> {
    const dir = this.teamDir(teamId);
    if (!dir) return false;
    const text = await readFile(join(dir, 'state.json'), 'utf8').catch(() => null);
    if (text === null) return false;
    const state = JSON.parse(text) as PersistedState;
    const team = this.team(teamId);
    for (const entry of state.emails) {
      const raw = await readFile(join(dir, 'emails', `${entry.id}.eml`));
      team.addEmail(raw, await parseMessage(raw), {
        id: entry.id,
        inbox: entry.inbox,
        createdAt: new Date(entry.createdAt),
        read: entry.read ? new Date(entry.read) : null,
        favorite: entry.favorite,
      });
    }
    for (const a of state.automations) {
      team.automations.set(a.id, { ...a, action_email: a.action_email ?? null, created_at: new Date(a.created_at), updated_at: new Date(a.updated_at) });
    }
    return true;
  }
}
