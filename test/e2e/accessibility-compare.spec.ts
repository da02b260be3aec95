/**
 * The tester's bench, second floor (issue 33): the accessibility check (A)
 * runs axe-core on the email as the reader shows it, light and in a client's
 * dark mode, and names each problem's line in the source (counted by hand
 * below); compare (B) sets an email beside the one before of its kind, text,
 * headers, links, code and the two renderings diffed pixel by pixel. Neither
 * fetches anything of the email's.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { expect, test } from './fixtures.ts';

const TOKEN = 'a11y-compare';
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

/** Lines counted by hand: each problem's line is in the comment beside it. */
const A11Y_HTML = (tracker: string) =>
  [
    '<!doctype html>', // 1
    '<html>', // 2: no lang
    '<head><style>', // 3
    '.faint { color: #aaaaaa; background: #ffffff; }', // 4
    '.night { color: #222222; }', // 5
    '@media (prefers-color-scheme: dark) { .night { color: #333333 !important; background: #1f1f1f !important; } }', // 6
    '</style></head>', // 7
    '<body>', // 8
    '<table width="600"><tr><td>', // 9: a layout table without role="presentation"
    '<h1>Welcome aboard</h1>', // 10
    '<h3>We skipped a level</h3>', // 11: heading order
    `<img src="data:image/png;base64,${PIXEL}" width="40" height="40">`, // 12: no alt
    '<p class="faint">Faint grey text on white</p>', // 13: contrast, light and dark
    '<p class="night">Readable by day, not by night</p>', // 14: contrast, dark only
    '<p><a href="https://example.com/offer">click here</a></p>', // 15: link text
    `<img src="${tracker}/open.gif" alt="">`, // 16: remote, never fetched
    '</td></tr></table>', // 17
    '</body>', // 18
    '</html>', // 19
  ].join('\r\n');

/** The two findings issue 43 named, on lines counted by hand. */
const A11Y_TRUE_HTML = [
  '<!doctype html>', // 1
  '<html lang="en"><body>', // 2
  '<table width="600"><tr><td>', // 3: a layout table around a data table: still a layout table
  '<table><caption>Your order</caption><tr><th>Item</th><th>Price</th></tr><tr><td>Mug</td><td>€9</td></tr></table>', // 4: a data table, fine
  `<p><a href="https://acme.test/shop"><img src="data:image/png;base64,${PIXEL}" width="40" height="40"></a></p>`, // 5: a link whose only content is an image without alt
  '</td></tr></table>', // 6
  '</body></html>', // 7
].join('\r\n');

const mail = (subject: string, date: string, html: string, extra: string[] = []) =>
  [
    'From: Acme <news@acme.test>',
    'To: qa@inbox.test',
    `Subject: ${subject}`,
    `Date: ${date}`,
    `Message-ID: <${Math.random().toString(36).slice(2)}@acme.test>`,
    ...extra,
    'MIME-Version: 1.0',
    'Content-Type: text/html; charset=utf-8',
    '',
    html,
    '',
  ].join('\r\n');

const ORDER = (code: string, total: string, banner: string, link: string) =>
  [
    '<html lang="en"><body style="margin:0">',
    `<div style="background:${banner};color:#fff;padding:24px;font:20px sans-serif">Acme</div>`,
    `<p style="font:16px sans-serif;padding:0 24px">Your order ${code} is confirmed.</p>`,
    `<p style="font:16px sans-serif;padding:0 24px">Total: ${total}</p>`,
    `<p style="font:16px sans-serif;padding:0 24px"><a href="${link}">Track your parcel</a></p>`,
    '<p style="font:13px sans-serif;padding:0 24px;color:#555">Thanks for shopping with Acme.</p>',
    '</body></html>',
  ].join('\n');

test.describe('accessibility and compare', () => {
  let service: RunningService;
  let tracker: Server;
  let origin = '';
  const hits: string[] = [];
  test.beforeAll(async () => {
    tracker = createServer((request, response) => {
      hits.push(request.url ?? '');
      response.end('');
    });
    await new Promise<void>((done) => tracker.listen(0, '127.0.0.1', done));
    origin = `http://127.0.0.1:${(tracker.address() as AddressInfo).port}`;
    service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
    await service.inject(mail('Accessibility sample', 'Mon, 02 Nov 2026 07:00:00 +0000', A11Y_HTML(origin)));
    await service.inject(
      mail('Order A-1041 confirmed', 'Mon, 02 Nov 2026 08:00:00 +0000', ORDER('A-1041', '€42.00', '#2f6fed', 'https://acme.test/track/1041'), ['X-Template: order-v1']),
    );
    await service.inject(mail('Weekly news', 'Mon, 02 Nov 2026 08:30:00 +0000', '<p>Not an order</p>'));
    await service.inject(mail('Image link in a layout table', 'Sun, 01 Nov 2026 08:00:00 +0000', A11Y_TRUE_HTML));
    await service.inject(
      mail('Order A-1042 confirmed', 'Mon, 02 Nov 2026 09:00:00 +0000', ORDER('A-1042', '€42.00', '#d9480f', 'https://acme.test/track/1042'), ['X-Template: order-v2']),
    );
  });
  test.afterAll(async () => {
    await service.close();
    await new Promise<void>((done) => tracker.close(() => done()));
  });

  test('A runs axe-core on the email as shown, light and dark, each problem on its hand-counted line; nothing fetched', async ({ openApp }) => {
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'Accessibility sample' }).click();
    await expect(page.frameLocator('iframe[title="Email content"]').getByText('Welcome aboard')).toBeVisible();
    await page.keyboard.press('A');
    const report = page.getByRole('region', { name: 'Accessibility' });
    await expect(report.getByRole('status')).toContainText('7 accessibility problems (axe-core, 14 rules, light and dark)', { timeout: 30_000 });
    const finding = (rule: string, where: string) => report.getByRole('listitem').filter({ hasText: rule }).filter({ hasText: where });
    const lines = async (rule: string, where: string) =>
      (await finding(rule, where).getByRole('button').allInnerTexts()).map((text) => Number(text.replace('line ', '')));
    expect(await lines('image-alt', 'light and dark')).toEqual([12]);
    expect(await lines('html-has-lang', 'light and dark')).toEqual([2]);
    expect(await lines('heading-order', 'light and dark')).toEqual([11]);
    expect(await lines('layout-table-role', 'light and dark')).toEqual([9]);
    expect(await lines('link-text-vague', 'light and dark')).toEqual([15]);
    expect(await lines('color-contrast', 'light and dark')).toEqual([13]);
    expect(await lines('color-contrast', 'in dark mode only')).toEqual([14]);
    // Worst first: a missing alt is critical, a layout table moderate.
    const order = await report.locator('.finding strong').allInnerTexts();
    expect(order.findIndex((t) => /alt/i.test(t))).toBeLessThan(order.findIndex((t) => /presentation/i.test(t)));
    // The keyboard is in the report: Enter on a line shows the source there.
    await expect(page.locator(':focus')).toHaveText(/^line \d+$/);
    const alt = finding('image-alt', 'light and dark').getByRole('button', { name: 'line 12' });
    for (let i = 0; i < 20 && !(await alt.evaluate((b) => b === document.activeElement)); i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(report.getByRole('list', { name: 'HTML source around line 12' }).locator('[aria-current="location"]')).toContainText('<img src="data:image/png');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect(report).toBeHidden();
    // The email's tracker was never asked, by the page or by main's hidden window.
    expect(hits).toEqual([]);
    expect(app.inspectorRequests.filter((url) => !url.startsWith('data:'))).toEqual([]);
    expect(app.inspectedDocuments).toHaveLength(2);
  });

  test('A sees links as a mail client shows them, and a layout table by its own rows: an image link without alt, and a layout table around a data table, each on its line', async ({ openApp }) => {
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'Image link in a layout table' }).click();
    await expect(page.frameLocator('iframe[title="Email content"]').getByText('Your order')).toBeVisible();
    await page.keyboard.press('A');
    const report = page.getByRole('region', { name: 'Accessibility' });
    await expect(report.getByRole('status')).toContainText('accessibility problem', { timeout: 30_000 });
    const lines = async (rule: string) => (await report.getByRole('listitem').filter({ hasText: rule }).getByRole('button').allInnerTexts()).map((text) => Number(text.replace('line ', '')));
    expect(await lines('link-name')).toEqual([5]);
    expect(await lines('layout-table-role')).toEqual([3]);
  });

  test('B compares an order with the one before of its kind: text, headers, links, and the rendering diffed with the changed regions boxed', async ({ openApp }) => {
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'Order A-1042 confirmed' }).click();
    await expect(page.frameLocator('iframe[title="Email content"]').getByText('Total: €42.00')).toBeVisible();
    await page.keyboard.press('B');
    const report = page.getByRole('region', { name: 'Compared with the previous one' });
    // The one before of its kind: A-1041 (the weekly news between them is another kind).
    await expect(report.getByRole('status')).toContainText('Compared with “Order A-1041 confirmed”', { timeout: 30_000 });
    await expect(report.getByRole('status')).toContainText('links +1 −1');
    const text = report.getByLabel('Changed lines of text');
    await expect(text.locator('.diff-removed')).toHaveText(['− Your order A-1041 is confirmed.']);
    await expect(text.locator('.diff-added')).toHaveText(['+ Your order A-1042 is confirmed.']);
    const headers = report.getByRole('table', { name: 'Headers that changed' });
    await expect(headers.getByRole('row', { name: /X-Template/ })).toContainText('order-v1');
    await expect(headers.getByRole('row', { name: /X-Template/ })).toContainText('order-v2');
    // Subject changed too; Date and Message-ID, new in every message, are left out.
    await expect(headers.getByRole('row', { name: /^Subject/ })).toBeVisible();
    await expect(headers.getByRole('row', { name: /^Date/ })).toHaveCount(0);
    await expect(headers.getByRole('row', { name: /^Message-ID/ })).toHaveCount(0);
    await expect(report.getByLabel('Links that changed')).toContainText('− https://acme.test/track/1041');
    await expect(report.getByLabel('Links that changed')).toContainText('+ https://acme.test/track/1042');
    // The renderings: the banner's colour and the order line changed, the footer did not.
    const rendering = report.getByLabel('The two renderings side by side');
    await expect(rendering.getByRole('img')).toHaveCount(2);
    // Served by main as app files (shown/<id>.png), half the 640 px width, and loaded.
    for (const img of await rendering.getByRole('img').all()) {
      await expect(img).toHaveAttribute('src', /^shown\/[0-9a-f-]{36}\.png$/);
      await expect.poll(() => img.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBe(320);
    }
    // Measured apart from the app: the current email's document laid out by the browser at the same width.
    const measure = await app.page.context().newPage();
    await measure.setViewportSize({ width: 640, height: 800 });
    await measure.setContent(app.inspectedDocuments.at(-1)!);
    const footerTop = await measure.getByText('Thanks for shopping with Acme.').evaluate((p) => p.getBoundingClientRect().top);
    const bannerBottom = await measure.getByText('Acme', { exact: true }).evaluate((div) => div.getBoundingClientRect().bottom);
    const height = await measure.evaluate(() => document.documentElement.scrollHeight);
    await measure.close();
    // The boxes are placed in percent of the rendering: in the document's pixels, as tall as it is laid out.
    const regions = await rendering.locator('.changed-region').evaluateAll(
      (boxes, full) =>
        boxes.map((box) => {
          const style = (box as HTMLElement).style;
          return { top: (parseFloat(style.top) * full) / 100, bottom: ((parseFloat(style.top) + parseFloat(style.height)) * full) / 100 };
        }),
      Math.max(800, height),
    );
    // The banner (its colour) and the order line changed: the first region starts at the top and
    // reaches past the banner; the footer, the same in both, is in no region (cells are 24 px).
    expect(regions.length).toBeGreaterThanOrEqual(1);
    expect(regions[0]!.top).toBe(0);
    expect(Math.max(...regions.map((r) => r.bottom))).toBeGreaterThan(bannerBottom);
    for (const region of regions) expect(region.bottom).toBeLessThanOrEqual(footerTop + 24);
    await page.keyboard.press('Escape');
    await expect(report).toBeHidden();
  });

  test('b picks an email by hand, B compares the open one with it; the help and the palette list A, B and b', async ({ openApp }) => {
    const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN });
    await page.getByRole('option').filter({ hasText: 'Weekly news' }).click();
    await expect(page.frameLocator('iframe[title="Email content"]').getByText('Not an order')).toBeVisible();
    await page.keyboard.press('b');
    await expect(page.getByRole('status').filter({ hasText: 'Picked “Weekly news” to compare with' })).toBeVisible();
    await page.getByRole('option').filter({ hasText: 'Order A-1041 confirmed' }).click();
    await expect(page.frameLocator('iframe[title="Email content"]').getByText('Total: €42.00')).toBeVisible();
    await page.keyboard.press('B');
    const report = page.getByRole('region', { name: 'Compared with the previous one' });
    await expect(report.getByRole('status')).toContainText('Compared with “Weekly news”', { timeout: 30_000 });
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    for (const [name, key] of [
      ['Check accessibility with axe-core', 'A'],
      ['Compare with the previous one of its kind', 'B'],
      ['Pick this email to compare others with', 'b'],
    ]) {
      await expect(palette.getByRole('option', { name: new RegExp(`^${name}`) }).locator('kbd')).toHaveText(key!);
    }
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: /shortcuts/i });
    await expect(help.getByRole('row').filter({ hasText: 'Check accessibility with axe-core' }).first().locator('kbd')).toHaveText('A');
    await expect(help.getByRole('row').filter({ hasText: 'Compare with the previous one' }).first().locator('kbd')).toHaveText('B');
  });
});
