import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CHECK_EVERY_MS,
  channelFile,
  feedUrlFrom,
  isNewer,
  UpdateChecker,
  updateMessage,
  type UpdateDeps,
  type UpdateFeed,
  type UpdateStatus,
} from '../../src/main/updates/policy.ts';
import { stubServer, type StubServer } from '../support/stub-server.ts';

/** The update decisions, against a loopback server that serves latest-linux.yml and a file. */
const FILE = Buffer.from('pretend this is Inbox Desk 0.2.0');
const SHA512 = createHash('sha512').update(FILE).digest('base64');
const feed = (version: string) =>
  `version: ${version}\nfiles:\n  - url: Inbox-Desk-${version}.AppImage\n    sha512: ${SHA512}\n    size: ${FILE.length}\npath: Inbox-Desk-${version}.AppImage\nsha512: ${SHA512}\nreleaseDate: '2026-11-20T10:00:00.000Z'\n`;

let server: StubServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Stands in for electron-updater's download: fetches the file and checks its SHA-512. */
async function downloadAndVerify(entry: UpdateFeed, url: string): Promise<void> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`download answered ${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (createHash('sha512').update(bytes).digest('base64') !== entry.sha512) throw new Error('checksum mismatch');
}

function checker(feedUrl: string | null, currentVersion = '0.1.0') {
  const statuses: UpdateStatus[] = [];
  const timers: number[] = [];
  const downloads: string[] = [];
  const deps: UpdateDeps = {
    feedUrl,
    currentVersion,
    platform: 'linux',
    fetchText: async (url) => {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (!response.ok) throw new Error(`feed answered ${response.status}`);
      return response.text();
    },
    download: async (entry, url) => {
      downloads.push(url);
      await downloadAndVerify(entry, url);
    },
    onStatus: (status) => statuses.push(status),
    setTimer: (_run, ms) => {
      timers.push(ms);
      return () => undefined;
    },
    now: () => 1_000,
  };
  return { updates: new UpdateChecker(deps), statuses, timers, downloads };
}

const serveFeed = async (version: string) => {
  server = await stubServer((request, response) => {
    if (request.url === '/latest-linux.yml') return response.end(feed(version));
    if (request.url === `/Inbox-Desk-${version}.AppImage`) return response.end(FILE);
    response.statusCode = 404;
    response.end();
  });
  return `${server.url}/`;
};

describe('app updates', () => {
  it('no feed URL in the build: never checks', async () => {
    const { updates, statuses, timers } = checker(null);
    updates.start();
    expect(await updates.check()).toEqual({ state: 'disabled' });
    expect(statuses.every((s) => s.state === 'disabled')).toBe(true);
    expect(timers).toEqual([]);
    expect(feedUrlFrom(null)).toBeNull();
    expect(feedUrlFrom('provider: github\nowner: x\n')).toBeNull();
    expect(feedUrlFrom("provider: generic\nurl: 'https://downloads.example.com/inbox-desk'\n")).toBe('https://downloads.example.com/inbox-desk/');
  });

  it('a newer version: downloads it in the background, then says it is ready (and never restarts)', async () => {
    const url = await serveFeed('0.2.0');
    const { updates, statuses, downloads } = checker(url);
    const status = await updates.check();
    expect(status).toEqual({ state: 'ready', version: '0.2.0' });
    expect(statuses.map((s) => s.state)).toEqual(['downloading', 'ready']);
    expect(downloads).toEqual([`${url}Inbox-Desk-0.2.0.AppImage`]);
    expect(server!.requests.map((r) => r.url)).toEqual(['/latest-linux.yml', '/Inbox-Desk-0.2.0.AppImage']);
    expect(updateMessage(status)).toBe('Version 0.2.0 is ready: restart to update.');
    // Ready stays ready: no second download until the user restarts.
    expect(await updates.check()).toEqual({ state: 'ready', version: '0.2.0' });
    expect(server!.requests).toHaveLength(2);
  });

  it('the same version: quiet, and looks again a day later', async () => {
    const url = await serveFeed('0.1.0');
    const { updates, downloads, timers } = checker(url);
    const status = await updates.check();
    expect(status).toEqual({ state: 'up-to-date', checkedAt: 1_000 });
    expect(updateMessage(status)).toBeNull();
    expect(downloads).toEqual([]);
    expect(timers).toEqual([CHECK_EVERY_MS]);
  });

  it('server down, or a file that does not match its checksum: quiet, retried the next day', async () => {
    const { updates, timers, statuses } = checker('http://127.0.0.1:9/');
    expect(await updates.check()).toEqual({ state: 'failed', retryAt: 1_000 + CHECK_EVERY_MS });
    expect(timers).toEqual([CHECK_EVERY_MS]);
    expect(statuses.map(updateMessage)).toEqual([null]);

    server = await stubServer((request, response) => response.end(request.url === '/latest-linux.yml' ? feed('0.3.0') : 'tampered'));
    const tampered = checker(`${server.url}/`);
    expect(await tampered.updates.check()).toMatchObject({ state: 'failed' });
    expect(tampered.statuses.map((s) => s.state)).toEqual(['downloading', 'failed']);
  });

  it('compares versions and names channel files as electron-builder does', () => {
    expect(isNewer('0.2.0', '0.1.9')).toBe(true);
    expect(isNewer('0.10.0', '0.9.0')).toBe(true);
    expect(isNewer('1.0.0', '1.0.0')).toBe(false);
    expect(isNewer('1.0.0', '1.0.0-beta.2')).toBe(true);
    expect(isNewer('1.0.0-beta.10', '1.0.0-beta.2')).toBe(true);
    expect(isNewer('0.9.0', '1.0.0')).toBe(false);
    expect([channelFile('linux'), channelFile('darwin'), channelFile('win32')]).toEqual(['latest-linux.yml', 'latest-mac.yml', 'latest.yml']);
  });
});
