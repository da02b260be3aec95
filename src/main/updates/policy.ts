/**
 * When Inbox Desk looks for a newer version, and what it tells the user.
 * No Electron here: the glue (updates.ts) hands in how to fetch and how to
 * download (electron-updater), and this decides.
 *
 * - No feed URL in the build (no app-update.yml): never check.
 * - Check at start and then once a day; a failure is quiet and retried the next day.
 * - A newer version is downloaded in the background, then the user is told
 *   "Version X is ready"; the app never restarts by itself.
 */

import type { UpdateStatus } from '../../shared/domain/update.ts';

export const CHECK_EVERY_MS = 24 * 60 * 60 * 1000;

export interface UpdateFeed {
  version: string;
  /** The file to download, relative to the feed URL. */
  path: string;
  /** base64 SHA-512 of that file, as electron-builder writes it. */
  sha512: string;
}

export type { UpdateStatus };

/** Reads a flat `key: value` YAML file (app-update.yml, latest*.yml): top-level scalars only. */
export function readYamlScalars(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^([A-Za-z][\w-]*):\s*(.*?)\s*$/.exec(line);
    if (!match || match[2] === '') continue;
    values[match[1]!] = match[2]!.replace(/^(['"])(.*)\1$/, '$2');
  }
  return values;
}

/** The generic provider's URL from app-update.yml, which electron-builder writes only when `publish` is set. */
export function feedUrlFrom(appUpdateYml: string | null): string | null {
  if (appUpdateYml === null) return null;
  const config = readYamlScalars(appUpdateYml);
  if (config.provider !== 'generic' || !config.url || !URL.canParse(config.url)) return null;
  const url = new URL(config.url);
  return url.protocol === 'https:' || url.protocol === 'http:' ? config.url.replace(/\/*$/, '/') : null;
}

export function parseFeed(latestYml: string): UpdateFeed | null {
  const values = readYamlScalars(latestYml);
  if (!values.version || !values.path || !values.sha512) return null;
  return { version: values.version, path: values.path, sha512: values.sha512 };
}

/** The channel file electron-builder publishes for each platform. */
export function channelFile(platform: string): string {
  return platform === 'darwin' ? 'latest-mac.yml' : platform === 'linux' ? 'latest-linux.yml' : 'latest.yml';
}

/** Semantic versions; a release outranks its pre-releases. */
export function isNewer(candidate: string, current: string): boolean {
  const parse = (v: string) => {
    const [core = '', pre] = v.replace(/^v/, '').split('-', 2);
    return { parts: core.split('.').map((n) => Number.parseInt(n, 10) || 0), pre: pre ?? null };
  };
  const a = parse(candidate);
  const b = parse(current);
  for (let i = 0; i < 3; i++) {
    const diff = (a.parts[i] ?? 0) - (b.parts[i] ?? 0);
    if (diff !== 0) return diff > 0;
  }
  if (a.pre === b.pre) return false;
  if (a.pre === null) return true;
  if (b.pre === null) return false;
  return a.pre.localeCompare(b.pre, 'en', { numeric: true }) > 0;
}

export interface UpdateDeps {
  feedUrl: string | null;
  currentVersion: string;
  platform: string;
  fetchText: (url: string) => Promise<string>;
  /** Downloads (and checks) the new version; rejects on failure. */
  download: (feed: UpdateFeed, fileUrl: string) => Promise<void>;
  onStatus: (status: UpdateStatus) => void;
  /** Runs `run` after `ms`; answers a cancel. */
  setTimer: (run: () => void, ms: number) => () => void;
  now: () => number;
}

export class UpdateChecker {
  private readonly deps: UpdateDeps;
  private cancelTimer: (() => void) | null = null;
  private status: UpdateStatus = { state: 'disabled' };

  constructor(deps: UpdateDeps) {
    this.deps = deps;
  }

  get current(): UpdateStatus {
    return this.status;
  }

  /** Checks now and then daily; does nothing without a feed URL. */
  start(): void {
    if (this.deps.feedUrl === null) {
      this.report({ state: 'disabled' });
      return;
    }
    void this.check();
  }

  stop(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  async check(): Promise<UpdateStatus> {
    const { feedUrl } = this.deps;
    if (feedUrl === null) return this.report({ state: 'disabled' });
    // Once a version is downloaded, there is nothing more to do until the user restarts.
    if (this.status.state === 'ready' || this.status.state === 'downloading') return this.status;
    this.stop();
    try {
      const feed = parseFeed(await this.deps.fetchText(new URL(channelFile(this.deps.platform), feedUrl).href));
      if (feed === null) throw new Error('the update feed is not in the expected shape');
      if (!isNewer(feed.version, this.deps.currentVersion)) {
        this.schedule(CHECK_EVERY_MS);
        return this.report({ state: 'up-to-date', checkedAt: this.deps.now() });
      }
      this.report({ state: 'downloading', version: feed.version });
      await this.deps.download(feed, new URL(feed.path, feedUrl).href);
      return this.report({ state: 'ready', version: feed.version });
    } catch {
      this.status = { state: 'failed', retryAt: this.deps.now() + CHECK_EVERY_MS };
      this.schedule(CHECK_EVERY_MS);
      return this.report(this.status);
    }
  }

  private schedule(ms: number): void {
    this.cancelTimer?.();
    this.cancelTimer = this.deps.setTimer(() => void this.check(), ms);
  }

  private report(status: UpdateStatus): UpdateStatus {
    this.status = status;
    this.deps.onStatus(status);
    return status;
  }
}

/** What the user is told: only a downloaded version is news. */
export function updateMessage(status: UpdateStatus): string | null {
  return status.state === 'ready' ? `Version ${status.version} is ready: restart to update.` : null;
}
