import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { expect, test } from './fixtures.ts';

/** Issue 9, items 4 and 10, at both window sizes, from the keyboard. */
const TOKEN = 'small-token-1';

for (const viewport of [{ width: 1280, height: 800 }, { width: 800, height: 600 }]) {
  test.describe(`the small things at ${viewport.width}×${viewport.height}`, () => {
    let service: RunningService;
    test.beforeEach(async () => {
      service = await startReferenceService({ teams: [{ id: 't', token: TOKEN }] });
      for (let i = 1; i <= 26; i++) {
        const [id] = await service.inject(rawMail({ subject: `Note ${i}`, from: i === 26 ? 'noreply@robot.test' : `Person ${i} <p${i}@example.test>`, text: 'x' }));
        service.service.team('t').updateEmail(id!, { createdAt: new Date(Date.UTC(2025, 5, i, 10)) });
      }
    });
    test.afterEach(() => service.close());

    test('one date format, a nameless sender as its address, the account named once', async ({ openApp }) => {
      const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, name: 'Support desk', viewport });
      const list = page.getByRole('listbox', { name: 'Emails' });
      const first = list.locator('[aria-selected="true"]');
      await expect(first).toContainText('Note 26');
      await expect(first.locator('.from')).toHaveText('noreply@robot.test');
      const listDate = await first.locator('time').textContent();
      const listExact = await first.locator('time').getAttribute('title');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Note 26' })).toBeVisible();
      const reader = page.getByRole('region', { name: 'Message' });
      await expect(reader.getByText('noreply@robot.test', { exact: true })).toBeVisible();
      await expect(reader.locator('time')).toHaveText(listDate!);
      await expect(reader.locator('time')).toHaveAttribute('title', listExact!);
      // An older year shows its year; the exact time is on hover.
      expect(listDate).toMatch(/2025/);
      await expect(page.locator('header').getByText('Support desk', { exact: true })).toHaveCount(1);
    });

    test('each view’s name in the header stays on one line, and the header inside the window', async ({ openApp }) => {
      // An account with a long name: its picker takes the header's room first.
      const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, name: 'Support desk of the customer success team (EU, staging)', viewport });
      const views = page.getByRole('navigation', { name: 'Views' }).getByRole('button');
      await expect(views).toHaveCount(3);
      // The lines each button's content is laid out on: its boxes, top to bottom, a new line
      // where one starts below the last line's bottom (the key's chip shares its word's line).
      const lines = await views.evaluateAll((buttons) =>
        buttons.map((button) => {
          const range = document.createRange();
          range.selectNodeContents(button);
          const boxes = [...range.getClientRects()].filter((r) => r.width > 0).sort((a, b) => a.top - b.top);
          let count = 0;
          let bottom = -Infinity;
          for (const box of boxes) {
            if (box.top >= bottom - 1) count++;
            bottom = Math.max(box.top >= bottom - 1 ? box.bottom : bottom, box.bottom);
          }
          return count;
        }),
      );
      expect(lines).toEqual([1, 1, 1]);
      const header = await page.locator('header.app-header').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(header.scroll).toBeLessThanOrEqual(header.client);
    });

    test('the pager’s count stays on one line, with the page number where the list has room for it', async ({ openApp }) => {
      const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, viewport });
      const count = page.locator('.pagination > span');
      await expect(count).toContainText('1–25 of 26');
      // Its lines, as the header test counts them: boxes, top to bottom.
      const lines = await count.evaluate((span) => {
        const range = document.createRange();
        range.selectNodeContents(span);
        const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top));
        return new Set(tops).size;
      });
      expect(lines).toBe(1);
      const listWidth = await page.locator('.pagination').evaluate((nav) => nav.getBoundingClientRect().width);
      await expect(count.getByText('page 1 of 2')).toBeVisible({ visible: listWidth > 480 });
    });

    test('deleting the only email on the last page goes back a page', async ({ openApp }) => {
      const { page } = await openApp({ baseUrl: service.baseUrl, teamId: 't', token: TOKEN, viewport });
      const list = page.getByRole('listbox', { name: 'Emails' });
      await expect(list.getByRole('option')).toHaveCount(25);
      await page.keyboard.press('n');
      await expect(page.locator('.pagination')).toContainText('26–26 of 26');
      await page.keyboard.press('#');
      await expect(page.locator('.pagination')).toContainText('1–25 of 25 · page 1 of 1');
    });
  });
}
