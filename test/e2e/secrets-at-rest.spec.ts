import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startReferenceService } from '../../src/server/index.ts';
import { expect, test } from './fixtures.ts';

/**
 * Secrets stay sealed: after a session that saves an account, edits a rule
 * with a webhook secret, types a new secret into a draft, and restarts with
 * the draft open, no file main wrote and no storage the renderer wrote holds
 * the bearer token or any webhook secret in clear. The draft comes back with
 * everything but the typed secret, which it asks for again.
 */
const TOKEN = 'bearer-token-9f3c51d2e8';
const RULE_SECRET = 'rule-secret-4b7e2a90c1';
const TYPED_SECRET = 'typed-secret-77d10e5fa3';

/** Every file under a folder, read as text. */
async function filesUnder(dir: string): Promise<{ path: string; text: string }[]> {
  const found: { path: string; text: string }[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    found.push({ path, text: await readFile(path, 'latin1') });
  }
  return found;
}

test('no file or storage the app writes holds a token or a webhook secret in clear; a draft asks for its typed secret again', async ({ openApp }) => {
  const service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
  try {
    service.service.team('t').createAutomation({
      title: 'Invoices', sender: null, inbox: null, subject: '^Invoice', has_attachments: false, action_url: 'https://hooks.example.test/in',
      action_email: null, action_secret_token: RULE_SECRET, action_delete_email: false, payload_format: 'json',
    });
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    const { page } = app;
    await expect(page.getByText('No mail here yet')).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await page.getByRole('list', { name: 'Rules' }).getByRole('listitem').filter({ hasText: 'Invoices' }).getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit automation' });
    await expect(form.getByLabel('Secret token')).toHaveValue(RULE_SECRET);
    await form.getByLabel('Title').fill('Invoices, renamed');
    await form.getByLabel('Secret token').fill(TYPED_SECRET);
    await expect.poll(() => app.handlers.unsavedDraft()).toBe('Invoices, renamed');

    // A restart with the draft open.
    await page.reload();
    await expect(page.getByText('No mail here yet')).toBeVisible();
    await page.keyboard.press('g');
    await page.keyboard.press('a');
    await expect(form.getByLabel('Title')).toHaveValue('Invoices, renamed');
    // The secret is the rule's own again, and the one typed is asked for.
    await expect(form.getByLabel('Secret token')).toHaveValue(RULE_SECRET);
    await expect(page.getByRole('status').filter({ hasText: 'secrets are not kept on disk, so type it again' })).toBeVisible();
    await expect(form.getByText('Type the new secret again: secrets are not kept on disk.')).toBeVisible();

    // Everything the renderer keeps, and every file main wrote.
    const stored = await page.evaluate(async () => {
      const dump = (storage: Storage) => Object.fromEntries(Array.from({ length: storage.length }, (_, i) => [storage.key(i)!, storage.getItem(storage.key(i)!)]));
      const databases = 'databases' in indexedDB ? await indexedDB.databases() : [];
      const caches = 'caches' in window ? await window.caches.keys() : [];
      return JSON.stringify({ local: dump(localStorage), session: dump(sessionStorage), databases, caches, cookie: document.cookie });
    });
    expect(stored).toContain('Invoices, renamed'); // the draft itself is kept
    const files = await filesUnder(app.dataDir);
    expect(files.map((f) => f.path)).toContain(app.settingsPath);
    for (const secret of [TOKEN, RULE_SECRET, TYPED_SECRET]) {
      expect(stored, `renderer storage holds ${secret}`).not.toContain(secret);
      for (const file of files) expect(file.text, `${file.path} holds ${secret}`).not.toContain(secret);
    }
  } finally {
    await service.close();
  }
});
