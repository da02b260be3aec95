import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startReferenceService, type AccessLogEntry, type RunningService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { expect, test } from './fixtures.ts';

/** Issue 9: triage from the keyboard alone, at both window sizes. */
const TOKEN = 'reader-token-1';
const LONG = Array.from({ length: 120 }, (_, i) => `Line ${i + 1} of a long report.`).join('\n');

for (const viewport of [{ width: 1280, height: 800 }, { width: 800, height: 600 }]) {
  test.describe(`reading from the keyboard at ${viewport.width}×${viewport.height}`, () => {
    let service: RunningService;
    const log: AccessLogEntry[] = [];
    test.beforeEach(async () => {
      log.length = 0;
      service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }], onResponse: (entry) => log.push(entry) });
      for (let i = 1; i <= 6; i++) {
        const [id] = await service.inject(rawMail({ subject: `Report ${i}`, text: i === 5 ? LONG : `Short body ${i}` }));
        service.service.team('t').updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 9, i, 10)) });
      }
    });
    test.afterEach(() => service.close());

    const open = async (openApp: Parameters<Parameters<typeof test>[2]>[0]['openApp']) => {
      const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, viewport });
      const list = app.page.getByRole('listbox', { name: 'Emails' });
      await expect(list.locator('[aria-selected="true"]')).toContainText('Report 6');
      return { ...app, list, selected: list.locator('[aria-selected="true"]') };
    };

    test('the reader follows j/k, marks the open row, and u goes back to the list', async ({ openApp }) => {
      const { page, list, selected } = await open(openApp);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Report 6' })).toBeVisible();
      await page.keyboard.press('j');
      await expect(page.getByRole('heading', { name: 'Report 5' })).toBeVisible();
      await expect(list.locator('li.open')).toContainText('Report 5');
      await page.keyboard.press('k');
      await expect(page.getByRole('heading', { name: 'Report 6' })).toBeVisible();
      await page.keyboard.press('G');
      await expect(page.getByRole('heading', { name: 'Report 1' })).toBeVisible();
      await page.keyboard.press('g');
      await page.keyboard.press('g');
      await expect(selected).toContainText('Report 6');
      await page.keyboard.press('u');
      await expect(page.getByText('Select an email and press Enter')).toBeVisible();
    });

    test('Space scrolls a long email, and at its end goes on to the next', async ({ openApp }) => {
      const { page, list } = await open(openApp);
      await list.getByRole('option').filter({ hasText: 'Report 5' }).click();
      await expect(page.locator('pre.plain')).toContainText('Line 120');
      const pane = page.locator('.message-pane');
      await page.keyboard.press('Space');
      await expect.poll(() => pane.evaluate((box) => box.scrollTop)).toBeGreaterThan(100);
      await page.keyboard.press('Shift+Space');
      await expect.poll(() => pane.evaluate((box) => box.scrollTop)).toBe(0);
      await page.keyboard.press('End');
      await expect.poll(() => pane.evaluate((box) => Math.ceil(box.scrollTop + box.clientHeight) >= box.scrollHeight - 2)).toBe(true);
      await page.keyboard.press('Home');
      await expect.poll(() => pane.evaluate((box) => box.scrollTop)).toBe(0);
      await page.keyboard.press('PageDown');
      await expect.poll(() => pane.evaluate((box) => box.scrollTop)).toBeGreaterThan(100);
      await page.keyboard.press('End');
      await page.keyboard.press('Space');
      await expect(page.getByRole('heading', { name: 'Report 4' })).toBeVisible();
    });

    test('delete needs no confirm, shows the next email, and z undoes it before the server hears', async ({ openApp }) => {
      const { page, list } = await open(openApp);
      let dialogs = 0;
      page.on('dialog', (dialog) => {
        dialogs += 1;
        void dialog.dismiss();
      });
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Report 6' })).toBeVisible();
      await page.keyboard.press('#');
      await expect(page.getByRole('heading', { name: 'Report 5' })).toBeVisible();
      await expect(list.getByRole('option').filter({ hasText: 'Report 6' })).toHaveCount(0);
      const undo = page.getByRole('status').filter({ hasText: 'Deleted “Report 6”.' });
      await expect(undo.getByRole('button', { name: 'Undo (z)' })).toBeVisible();
      await page.keyboard.press('z');
      await expect(list.getByRole('option').filter({ hasText: 'Report 6' })).toHaveCount(1);
      expect(dialogs).toBe(0);
      // Past the undo window nothing was sent for the undone delete.
      await page.waitForTimeout(5600);
      expect(log.filter((entry) => entry.method === 'DELETE')).toEqual([]);
      expect(service.service.team('t').count()).toBe(6);
    });

    test('the header and actions belong to the email being opened, never the previous one', async ({ openApp }) => {
      const { page } = await open(openApp);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Report 6' })).toBeVisible();
      // Report 5 has the long body: while it loads, the header already says Report 5.
      const slow = service.service.team('t');
      const email5 = slow.query().find((e) => e.subject === 'Report 5')!;
      await page.keyboard.press('j');
      await expect(page.getByRole('heading', { name: 'Report 5' })).toBeVisible();
      await page.keyboard.press('s');
      await expect.poll(() => slow.getEmail(email5.id)!.favorite).toBe(true);
      expect(slow.query().find((e) => e.subject === 'Report 6')!.favorite).toBe(false);
    });
  });
}


for (const viewport of [{ width: 1280, height: 800 }, { width: 800, height: 600 }]) {
  test(`${'an outage is told once, with one countdown, and the app recovers by itself where it was'} at ${viewport.width}×${viewport.height}`, async ({ openApp }) => {
    // A data folder: the server comes back with the same mail and ids, as a real one would.
    const dataDir = await mkdtemp(join(tmpdir(), 'inbox-desk-outage-'));
    let service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }], dataDir });
    const port = Number(new URL(service.baseUrl).port);
    for (let i = 1; i <= 30; i++) {
      const [id] = await service.inject(rawMail({ subject: `Report ${i}`, text: `Body ${i}` }));
      service.service.team('t').updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 9, i, 10)) });
    }
    await service.service.settled();
    try {
      const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, http: { maxRetries: 0 }, viewport });
      const list = page.getByRole('listbox', { name: 'Emails' });
      await expect(list.getByRole('option')).toHaveCount(25);
      await page.keyboard.press('n');
      await expect(page.getByText('26–30 of 30')).toBeVisible();
      await page.keyboard.press('j');
      await page.keyboard.press('j');
      const selected = await list.locator('[aria-selected="true"]').textContent();

      await service.close();
      await page.keyboard.press('r');
      const banner = page.getByRole('alert').filter({ hasText: 'cannot be reached' });
      await expect(banner).toContainText(/Trying again in \d+ s\./);
      await page.keyboard.press('Enter'); // opening an email meanwhile adds no second message
      await expect(page.getByRole('alert')).toHaveCount(1);
      await expect(list.getByRole('option')).toHaveCount(5);

      // The server comes back on the same address: nobody presses Retry.
      service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }], port, dataDir });
      await expect(banner).toHaveCount(0, { timeout: 15_000 });
      await expect(page.getByText('26–30 of 30')).toBeVisible();
      expect(await list.locator('[aria-selected="true"]').textContent()).toBe(selected);
    } finally {
      await service.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  test(`${'a saves any attachment by its number, says so when there is none, and 4 shows the headers'} at ${viewport.width}×${viewport.height}`, async ({ openApp }) => {
    const service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
    try {
      const boundary = 'b-multi';
      const raw = [
        'From: Ops <ops@example.test>', 'To: support@acme.test', 'Subject: Two files', 'Date: Mon, 02 Nov 2026 10:00:00 +0000',
        'X-Ticket: 4711', '  (folded on to a second line)', 'MIME-Version: 1.0', `Content-Type: multipart/mixed; boundary="${boundary}"`, '',
        `--${boundary}`, 'Content-Type: text/plain', '', 'See attached.',
        `--${boundary}`, 'Content-Type: text/csv; name="first.csv"', 'Content-Disposition: attachment; filename="first.csv"', '', 'a,b',
        `--${boundary}`, 'Content-Type: text/plain; name="second.txt"', 'Content-Disposition: attachment; filename="second.txt"', '', 'the second one',
        `--${boundary}--`, '',
      ].join('\r\n');
      const [withFiles] = await service.inject(raw);
      const [none] = await service.inject(rawMail({ subject: 'Nothing attached', text: 'x' }));
      service.service.team('t').updateEmail(withFiles!, { createdAt: new Date(Date.UTC(2026, 9, 2)) });
      service.service.team('t').updateEmail(none!, { createdAt: new Date(Date.UTC(2026, 9, 1)) });
      const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, viewport });
      const { page } = app;
      await expect(page.getByRole('option').filter({ hasText: 'Two files' })).toBeVisible();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Two files' })).toBeVisible();
      await page.keyboard.press('a');
      const chooser = page.getByRole('dialog', { name: 'Save an attachment' });
      await expect(chooser.getByRole('button', { name: /second\.txt/ })).toBeVisible();
      await page.keyboard.press('2');
      await expect(chooser).toHaveCount(0);
      await expect.poll(async () => readFile(join(app.dataDir, 'second.txt'), 'utf8').catch(() => '')).toBe('the second one');

      await page.keyboard.press('4');
      const headers = page.getByRole('table', { name: 'Headers' });
      await expect(headers.getByRole('row').filter({ hasText: 'X-Ticket' })).toContainText('4711 (folded on to a second line)');
      await page.keyboard.press('2');
      await expect(headers).toHaveCount(0);

      await page.keyboard.press('j');
      await expect(page.getByRole('heading', { name: 'Nothing attached' })).toBeVisible();
      await page.keyboard.press('a');
      await expect(page.getByRole('status').filter({ hasText: 'This email has no attachments.' })).toBeVisible();
    } finally {
      await service.close();
    }
  });

  test(`${'x, J and * a select; s stars them all with a progress line; # deletes them all and z brings them all back'} at ${viewport.width}×${viewport.height}`, async ({ openApp }) => {
    const log: AccessLogEntry[] = [];
    const service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }], onResponse: (entry) => log.push(entry) });
    try {
      for (let i = 1; i <= 8; i++) {
        const [id] = await service.inject(rawMail({ subject: `Batch ${i}`, text: `b${i}` }));
        service.service.team('t').updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 9, i, 10)) });
      }
      const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, viewport });
      const list = page.getByRole('listbox', { name: 'Emails' });
      await expect(list.locator('[aria-selected="true"]')).toContainText('Batch 8');
      await page.keyboard.press('x');
      await page.keyboard.press('j');
      await page.keyboard.press('J');
      await expect(page.getByRole('status').filter({ hasText: '3 selected' })).toBeVisible();
      await expect(list.locator('[aria-checked="true"]')).toHaveCount(3);
      await page.keyboard.press('s');
      const starred = () => service.service.team('t').query().filter((e) => e.favorite).map((e) => e.subject).sort();
      await expect.poll(starred).toEqual(['Batch 6', 'Batch 7', 'Batch 8']);
      await expect(page.getByRole('status').filter({ hasText: 'selected' })).toHaveCount(0);

      await page.keyboard.press('*');
      await page.keyboard.press('a');
      await expect(list.locator('[aria-checked="true"]')).toHaveCount(8);
      await page.keyboard.press('#');
      await expect(page.getByText('No email matches').or(page.getByText('No mail here yet'))).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: 'Deleted 8 emails.' })).toBeVisible();
      await page.keyboard.press('z');
      await expect(list.getByRole('option')).toHaveCount(8);
      await page.waitForTimeout(5600);
      expect(log.filter((entry) => entry.method === 'DELETE')).toEqual([]);
      expect(service.service.team('t').count()).toBe(8);
    } finally {
      await service.close();
    }
  });

  test(`${'cid: images show from the email itself, and nothing is fetched for them'} at ${viewport.width}×${viewport.height}`, async ({ openApp }) => {
    const service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
    try {
      // A 2×1 red PNG.
      const png = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAIAAAB7QOjdAAAAEElEQVR4nGP4z8DAwMDAAAAP/gH/z1EiiAAAAABJRU5ErkJggg==';
      const boundary = 'b-related';
      await service.inject([
        'From: Brand <brand@example.test>', 'To: support@acme.test', 'Subject: Inline logo', 'Date: Mon, 02 Nov 2026 10:00:00 +0000',
        'MIME-Version: 1.0', `Content-Type: multipart/related; boundary="${boundary}"`, '',
        `--${boundary}`, 'Content-Type: text/html; charset=utf-8', '', '<p>Our logo: <img id="logo" src="cid:logo@brand" alt="logo"> <img id="missing" src="cid:nope@brand" alt="missing"></p>',
        `--${boundary}`, 'Content-Type: image/png', 'Content-ID: <logo@brand>', 'Content-Transfer-Encoding: base64', 'Content-Disposition: inline', '', png,
        `--${boundary}--`, '',
      ].join('\r\n'));
      const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, viewport });
      const { page } = app;
      await expect(page.getByRole('listbox', { name: 'Emails' }).locator('[aria-selected="true"]')).toContainText('Inline logo');
      await page.keyboard.press('Enter');
      const frame = page.frameLocator('iframe[title="Email content"]');
      await expect(frame.locator('#logo')).toHaveAttribute('src', /^data:image\/png;base64,/);
      await expect.poll(() => frame.locator('#logo').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(2);
      await expect(frame.locator('#missing')).not.toHaveAttribute('src', /cid:/);
      expect(app.blockedRequests).toEqual([]);
    } finally {
      await service.close();
    }
  });
}

test('deleting the only email on the last page goes back a page, never "page 2 of 1"', async ({ openApp }) => {
  const service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
  try {
    for (let i = 1; i <= 26; i++) {
      const [id] = await service.inject(rawMail({ subject: `Item ${i}`, text: 'x' }));
      service.service.team('t').updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 9, i, 10)) });
    }
    const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    const list = page.getByRole('listbox', { name: 'Emails' });
    await expect(list.getByRole('option')).toHaveCount(25);
    await page.keyboard.press('n');
    await expect(page.getByText('26–26 of 26')).toBeVisible();
    await page.keyboard.press('#');
    await expect(list.getByRole('option')).toHaveCount(25);
    await expect(page.locator('.pagination')).toContainText('1–25 of 25 · page 1 of 1');
    // A refresh inside the undo window asks the server, which still has 26: the pages shown still say 25.
    await page.keyboard.press('r');
    await expect(page.locator('.pagination')).toContainText('page 1 of 1');
    await expect(page.getByText('page 2 of')).toHaveCount(0);
  } finally {
    await service.close();
  }
});
