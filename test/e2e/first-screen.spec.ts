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
    // The service keeps its mail on disk, so the same emails (the same ids) are there after its restart.
    const store = join(dataDir, 'service');
    let service = await startReferenceService({ teams: [{ id: 'qa', token: 'qa-token' }], dataDir: store });
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
    // Nor the token.
    expect(kept).not.toContain('qa-token');

    // The server is down: the last screen shows, with its time, and the outage is said.
    await service.close();
    const second = await openApp({ baseUrl: service.baseUrl, teamId: 'qa', token: 'qa-token', dataDir });
    const again = second.page.getByRole('listbox', { name: 'Emails' }).getByRole('option');
    await expect(again).toHaveCount(3);
    await expect(second.page.getByRole('navigation', { name: 'Pages' })).toContainText(/as of \d{1,2}:\d{2}.*updating…/);
    await expect(second.page.getByRole('alert').or(second.page.getByRole('status')).filter({ hasText: /reach|connect/i }).first()).toBeVisible();
    // The user moves on the old screen; the fresh page must not take the place away.
    const selected = second.page.getByRole('listbox', { name: 'Emails' }).locator('[aria-selected="true"]');
    await second.page.keyboard.press('j');
    await expect(selected).toHaveCount(1);
    const chosen = (await selected.textContent())!.match(/Earlier email \d/)![0];
    expect(await again.nth(1).textContent()).toContain(chosen);

    // It comes back with a new email: the fresh page replaces the snapshot, and the mark goes.
    service = await startReferenceService({ port, teams: [{ id: 'qa', token: 'qa-token' }], dataDir: store });
    await service.inject(rawMail({ subject: 'Arrived while closed' }));
    await expect(again.first()).toContainText('Arrived while closed', { timeout: 30_000 });
    await expect(again).toHaveCount(4);
    await expect(second.page.getByRole('navigation', { name: 'Pages' })).not.toContainText('as of');
    await expect(selected).toContainText(chosen);

    // Removing the account removes its rows.
    await second.handlers.table.removeAccount({ id: second.accounts.activeId! });
    expect(await second.handlers.table.getSnapshot(undefined)).toBeNull();
    await second.close();
    await service.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
