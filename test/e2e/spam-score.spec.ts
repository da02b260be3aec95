/**
 * S in the reader: SpamAssassin's verdict from a real spamd (Debian's), the
 * score against the threshold and each rule with its points; off until set,
 * said in place. Skipped where no spamd is installed, unless CI requires it.
 */
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { spamdMissing, SPAMD_REQUIRED, startSpamd, type RunningSpamd } from '../support/real-spamd.ts';
import { expect, test } from './fixtures.ts';

const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';
const missing = spamdMissing();

test.describe('the spam score (S)', () => {
  test.skip(missing !== null && !SPAMD_REQUIRED, `no spamd here: ${missing}`);
  let spamd: RunningSpamd;
  let service: RunningService;
  test.beforeAll(async () => {
    test.setTimeout(90_000);
    spamd = await startSpamd();
    service = await startReferenceService({ teams: [{ id: 'qa', token: 'qa-token' }] });
    await service.inject(rawMail({ from: 'Bulk <bulk@spam.test>', to: 'qa@acme.test', subject: 'Cheap offer', text: `Buy now.\r\n${GTUBE}\r\n` }));
  });
  test.afterAll(async () => {
    await service?.close();
    await spamd?.stop();
  });

  test('off until set, said in place; then SpamAssassin’s verdict with GTUBE first', async ({ openApp }) => {
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 'qa', token: 'qa-token' });
    const { page } = app;
    await page.getByRole('listbox', { name: 'Emails' }).getByRole('option').filter({ hasText: 'Cheap offer' }).click();
    await expect(page.getByRole('heading', { name: 'Cheap offer' })).toBeVisible();
    await page.keyboard.press('Shift+S');
    await expect(page.getByRole('status', { name: 'Spam score' })).toContainText('Spam scores are off: set SpamAssassin’s spamd in Settings');
    await app.accounts.updateSettings({ spamd: spamd.address });
    await page.keyboard.press('Shift+S');
    const panel = page.getByRole('region', { name: 'Spam score' });
    await expect(panel.getByRole('status')).toContainText('SpamAssassin calls this spam.', { timeout: 20_000 });
    await expect(panel.getByRole('row').first()).toContainText('GTUBE');
  });
});
