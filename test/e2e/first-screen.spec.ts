/**
 * The first screen at once (issue 34): the rows of the last run are painted
 * from main's snapshot before the server answers, marked with their time,
 * and the fresh page replaces them; with the server down they stay, said so.
 * An account removed takes its rows with it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { expect, test } from './fixtures.ts';

test('the last run’s rows show at once, marked, and stay while the server is down; its fresh page replaces them', async ({ openApp }) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'inbox-desk-first-screen-'));
  try {
    let service = await startReferenceService({ teams: [{ id: 'qa', token: 'qa-token' }] });
    const port = Number(new URL(service.baseUrl).port);
    for (const n of [1, 2, 3]) await service.inject(rawMail({ subject: `Earlier email ${n}` }));
    const first = await openApp({ baseUrl: service.baseUrl, teamId: 'qa', token: 'qa-token', dataDir });
    const rows = first.page.getByRole('listbox', { name: 'Emails' }).getByRole('option');
    await expect(rows).toHaveCount(3);
    await first.close();
    // Rows only: no body of any email is in the snapshot.
    const kept = await readFile(join(dataDir, 'first-screen.json'), 'utf8');
    expect(kept).toContain('Earlier email 3');
    expect(kept).not.toContain('Body');

    // The server is down: the last screen shows, with its time, and the outage is said.
    await service.close();
    const second = await openApp({ baseUrl: service.baseUrl, teamId: 'qa', token: 'qa-token', dataDir });
    const again = second.page.getByRole('listbox', { name: 'Emails' }).getByRole('option');
    await expect(again).toHaveCount(3);
    await expect(second.page.getByRole('navigation', { name: 'Pages' })).toContainText(/as of \d{1,2}:\d{2}.*updating…/);
    await expect(second.page.getByRole('alert').or(second.page.getByRole('status')).filter({ hasText: /reach|connect/i }).first()).toBeVisible();

    // It comes back with a new email: the fresh page replaces the snapshot, and the mark goes.
    service = await startReferenceService({ port, teams: [{ id: 'qa', token: 'qa-token' }] });
    for (const n of [1, 2, 3]) await service.inject(rawMail({ subject: `Earlier email ${n}` }));
    await service.inject(rawMail({ subject: 'Arrived while closed' }));
    // (Anywhere on the page: the four arrive within a millisecond or two, so their order is the server's tie-break.)
    await expect(again.filter({ hasText: 'Arrived while closed' })).toHaveCount(1, { timeout: 30_000 });
    await expect(again).toHaveCount(4);
    await expect(second.page.getByRole('navigation', { name: 'Pages' })).not.toContainText('as of');

    // Removing the account removes its rows.
    await second.handlers.table.removeAccount({ id: second.accounts.activeId! });
    expect(await second.handlers.table.getSnapshot(undefined)).toBeNull();
    await second.close();
    await service.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
