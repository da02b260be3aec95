import { expect, test } from './fixtures.ts';

test.describe('hostile and remote-laden HTML', () => {
  test('nothing in a hostile email runs, submits, navigates or fetches', async ({ openApp }) => {
    const app = await openApp({ demo: true });
    const { page } = app;
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('option').filter({ hasText: 'Urgent: verify your account' }).click();
    const frame = page.frameLocator('iframe[title="Email content"]');
    await expect(frame.getByText('Please')).toBeVisible();

    // No script, no handler, no form, no frame, no meta refresh, no base survived.
    const body = frame.locator('body');
    for (const selector of ['script', 'form', 'input', 'iframe', 'object', 'meta[http-equiv]', 'base', 'svg', '[onerror]', '[onload]']) {
      await expect(body.locator(selector), selector).toHaveCount(0);
    }
    // Links keep only web and mailto targets, and never as a navigable href.
    const targets = await frame.locator('a').evaluateAll((links) => links.map((a) => [a.getAttribute('href'), a.getAttribute('data-href')]));
    expect(targets).toEqual([[null, null], [null, 'https://phish.test/login'], [null, null]]);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: boolean }).__pwned)).toBeUndefined();
    expect(dialogs).toEqual([]);
    // The iframe is sandboxed without scripts.
    await expect(page.locator('iframe[title="Email content"]')).toHaveAttribute('sandbox', 'allow-same-origin');

    // The page never left the app, and asked the network for nothing. The frame's
    // load handler has run (it sizes the frame), so its resources were resolved.
    await expect(page.locator('iframe[title="Email content"]')).toHaveAttribute('style', /height/);
    expect(new URL(page.url()).pathname).toBe('/index.html');
    expect(app.blockedRequests).toEqual([]);
    await expect(page.getByRole('status').filter({ hasText: 'remote' })).toContainText('blocked');
  });

  test('remote images and tracking pixels load only when asked', async ({ openApp }) => {
    const app = await openApp({ demo: true });
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'calmer inbox' }).click();
    const frame = page.frameLocator('iframe[title="Email content"]');
    await expect(frame.getByRole('heading', { name: '10 tips for a calmer inbox' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'remote' })).toContainText('3 remote resources were blocked');
    await expect(page.locator('iframe[title="Email content"]')).toHaveAttribute('style', /height/);
    expect(app.blockedRequests).toEqual([]);

    await page.keyboard.press('i');
    await expect(page.getByRole('status').filter({ hasText: 'remote resources were blocked' })).toHaveCount(0);
    await expect.poll(() => app.blockedRequests.sort()).toEqual([
      'https://cdn.digest.test/banner.png',
      'https://cdn.digest.test/bg.png',
      'https://track.digest.test/open.gif?u=123',
    ]);
  });
});
