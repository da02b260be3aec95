import type { Page } from '@playwright/test';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { expect, test } from './fixtures.ts';
import type { AppHandle, OpenAppOptions } from './host.ts';

/**
 * The security review's findings 2, 6, 7 and 9, each reproduced against the
 * real renderer: the attack is in the email, and the test shows it fails.
 */
const EMAILS: { subject: string; html: string; text?: string }[] = [
  { subject: 'Nested divs', html: `${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}`, text: 'The text of the nested one' },
  { subject: 'Unclosed bold', html: '<b>x'.repeat(73_250), text: 'Bold text version' },
  {
    subject: 'CSS smuggling',
    html: `<style>
      .a { background: \\75 rl(https://attacker.test/1.png) }
      .b { background-image: u\\72l(https://attacker.test/2.png) }
      .c { background-image: image-set('https://attacker.test/3.png' 1x) }
      .d { background: url("data:image/png;base64,AAAA"/**/), url(https://attacker.test/4.png) }
      @\\69mport 'https://attacker.test/5.css';
      @font-face { font-family: x; src: \\75 rl(https://attacker.test/6.woff) }
      @media screen { .e { list-style-image: url(https://attacker.test/7.png) } }
      .keep { color: rgb(200, 0, 0) }
    </style>
    <p class="keep" style="background:\\75 rl(https://attacker.test/8.png);border:1px solid">Styled text</p>
    <p style="background-image:url(data:image/png;base64,AAAA)">Inline image stays</p>`,
  },
  {
    subject: 'Links and overlays',
    html: `<p id="body-text">Your invoice is attached. Read it carefully.</p>
      <a id="overlay" href="https://attacker.test/overlay" style="position:fixed;top:0;left:0;width:100%;height:100%;display:block">&nbsp;</a>
      <div style="position:sticky;top:0">Session expired: sign in again</div>
      <a id="plain" href=" https://example.test/real?x=1">Real link</a>
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" usemap="#m" width="100" height="100" alt="map">
      <map name="m"><area id="area" shape="rect" coords="0,0,100,100" href="https://attacker.test/area"></map>
      <a href="javascript:alert(1)">js</a>
      <a id="phish" href="https://bank-login.attacker.test/">https://www.bank.test/login</a>`,
  },
  { subject: 'Ordinary', html: '<p>Nothing to see</p>', text: 'Nothing to see' },
  // End tags nothing opened: a pre-scan that counts them as closes sees depth 1, the browser nests 10,000 deep.
  { subject: 'Fooled nesting', html: '<div></x>'.repeat(10_000), text: 'The text of the fooled one' },
  {
    subject: 'Nested overlay',
    html: `<style>.wrap { & > a { position: fixed; inset: 0; display: block } } .w2 { .s { position: sticky; top: 0 } }</style>
      <div class="wrap"><p id="nested-text">Read your statement below.</p><a id="nested-overlay" href="https://attacker.test/nested">&nbsp;</a></div>
      <div class="w2"><div class="s">Sign in again</div></div>`,
  },
  {
    subject: 'Lookalike',
    html: '<p><a id="idn" href="https://аррӏе.com/">аррӏе.com</a> <a id="latin" href="https://apple.test/">apple.test</a></p>',
  },
];

/** Long main-thread tasks seen by the page since it loaded, in ms. */
async function longTasks(page: Page): Promise<number[]> {
  return page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks.slice());
}

test.describe('hostile email cannot freeze, fetch, navigate or overlay', () => {
  let service: RunningService;
  test.beforeAll(async () => {
    service = await startReferenceService({ teams: [{ id: 's', token: 'security-token-1' }] });
    for (const [index, email] of EMAILS.entries()) {
      const [id] = await service.inject(rawMail({ subject: email.subject, html: email.html, ...(email.text ? { text: email.text } : {}) }));
      service.service.team('s').updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 10, 20 - index)) });
    }
  });
  test.afterAll(() => service.close());

  const open = async (openApp: (options: OpenAppOptions) => Promise<AppHandle>) => {
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 's', token: 'security-token-1' });
    await app.page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { __longTasks: number[] }).__longTasks = seen;
      new PerformanceObserver((list) => list.getEntries().forEach((entry) => seen.push(Math.round(entry.duration)))).observe({ type: 'longtask' });
    });
    await expect(app.page.getByRole('listbox', { name: 'Emails' }).getByRole('option').first()).toBeVisible();
    // The app at rest: the reader and its frame load just after the first rows, and the keys timed
    // below are about the hostile email, not about the start.
    await app.page.frameLocator('iframe[title="Email content"]').locator('html').waitFor({ state: 'attached' });
    return app;
  };

  test('finding 2: a 1.1 MB nest of divs and 293 KB of unclosed <b> open without a long task, and keys stay live', async ({ openApp }) => {
    const { page } = await open(openApp);
    const list = page.getByRole('listbox', { name: 'Emails' });
    const selected = list.locator('[aria-selected="true"]');
    await expect(selected).toContainText('Nested divs');
    await page.keyboard.press('Enter');
    const refused = page.getByRole('status').filter({ hasText: 'is nested deeper than Inbox Desk shows safely' });
    await expect(refused).toBeVisible();
    // The key pressed while the hostile email is open is honoured at once.
    const moved = await page.evaluate(async () => {
      const began = performance.now();
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'j', cancelable: true }));
      const list = document.querySelector('[role="listbox"][aria-label="Emails"]')!;
      while (!list.querySelector('[aria-selected="true"]')?.textContent?.includes('Unclosed bold')) {
        await new Promise(requestAnimationFrame);
        if (performance.now() - began > 2000) break;
      }
      return performance.now() - began;
    });
    expect(moved).toBeLessThan(100);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Unclosed bold' })).toBeVisible();
    await expect(refused).toBeVisible();
    // Remote content cannot bring it back; the text version is one key away.
    await page.keyboard.press('i');
    await expect(refused).toBeVisible();
    await page.keyboard.press('2');
    await expect(page.locator('pre.plain')).toContainText('Bold text version');
    // It used to freeze 18.6 s and 9.3 s. Opened alone, neither leaves any
    // long task now; this bound only absorbs a busy CI machine's noise.
    expect(Math.max(0, ...(await longTasks(page)))).toBeLessThan(1000);
  });

  test('a pre-scan fooled by stray end tags: refused as the browser would nest it, keys answered within 100 ms', async ({ openApp }) => {
    const { page } = await open(openApp);
    // Long tasks from here on only: the app's start is not what is measured.
    await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks.splice(0));
    await page.getByRole('option').filter({ hasText: 'Fooled nesting' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'is nested deeper than Inbox Desk shows safely' })).toBeVisible();
    const moved = await page.evaluate(async () => {
      const began = performance.now();
      window.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', cancelable: true }));
      const list = document.querySelector('[role="listbox"][aria-label="Emails"]')!;
      while (!list.querySelector('[aria-selected="true"]')?.textContent?.includes('Ordinary')) {
        await new Promise(requestAnimationFrame);
        if (performance.now() - began > 2000) break;
      }
      return performance.now() - began;
    });
    expect(moved).toBeLessThan(100);
    // It used to be one ~400 ms task; the bound leaves room for a loaded CI machine, the key above is the promise.
    expect(Math.max(0, ...(await longTasks(page)))).toBeLessThan(250);
  });

  test('a fixed overlay inside a nested rule is gone: a click on the text opens nothing', async ({ openApp }) => {
    const app = await open(openApp);
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'Nested overlay' }).click();
    const frame = page.frameLocator('iframe[title="Email content"]');
    await expect(frame.locator('#nested-text')).toBeVisible();
    await expect(frame.locator('#nested-overlay')).not.toHaveCSS('position', 'fixed');
    await expect(frame.getByText('Sign in again')).not.toHaveCSS('position', 'sticky');
    await frame.locator('#nested-text').click();
    expect(app.openedExternally).toEqual([]);
  });

  test('a link to a name in another alphabet asks first, with its real (punycode) name, even when its text agrees', async ({ openApp }) => {
    const app = await open(openApp);
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'Lookalike' }).click();
    const frame = page.frameLocator('iframe[title="Email content"]');
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await frame.locator('#idn').click();
    await expect.poll(() => asked).toEqual([expect.stringContaining('goes to xn--80ak6aa92e.com')]);
    expect(app.openedExternally).toEqual([]);
    page.once('dialog', (dialog) => void dialog.accept());
    await frame.locator('#idn').click();
    await expect.poll(() => app.openedExternally).toEqual(['https://xn--80ak6aa92e.com/']);
    // An ordinary link whose text agrees opens without a question.
    await frame.locator('#latin').click();
    await expect.poll(() => app.openedExternally).toEqual(['https://xn--80ak6aa92e.com/', 'https://apple.test/']);
  });

  test('a call from any frame but the app’s own page is refused by main’s IPC check (src/main/ipc.ts)', async ({ openApp }) => {
    const app = await open(openApp);
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'Ordinary' }).click();
    await expect(page.frameLocator('iframe[title="Email content"]').getByText('Nothing to see')).toBeVisible();
    const emailFrame = page.frames().find((f) => f.url().endsWith('/email-frame.html'))!;
    // As if script ran in the email's frame and reached the transport: main must refuse it.
    const answer = await emailFrame.evaluate(() =>
      (window as unknown as { __inboxDeskInvoke: (c: string, a: unknown) => Promise<unknown> }).__inboxDeskInvoke('inbox-desk:getAccounts', undefined),
    );
    expect(answer).toMatchObject({ ok: false, error: { kind: 'forbidden' } });
    // The app's own page is served.
    const own = await page.evaluate(() => (window as unknown as { __inboxDeskInvoke: (c: string, a: unknown) => Promise<unknown> }).__inboxDeskInvoke('inbox-desk:getAccounts', undefined));
    expect(own).toMatchObject({ ok: true });
  });

  test('finding 6: CSS escapes, image-set, @import and @font-face load nothing, and the count is honest', async ({ openApp }) => {
    const app = await open(openApp);
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'CSS smuggling' }).click();
    const frame = page.frameLocator('iframe[title="Email content"]');
    await expect(frame.getByText('Styled text')).toBeVisible();
    const documentHtml = await frame.locator('html').evaluate((html) => html.outerHTML);
    expect(documentHtml).not.toContain('attacker.test');
    await expect(page.getByRole('status').filter({ hasText: 'remote' })).toContainText('8 remote resources were blocked');
    // What is harmless stays: the colour rule, the border, the inline data: image.
    await expect(frame.getByText('Styled text')).toHaveCSS('color', 'rgb(200, 0, 0)');
    await expect(frame.getByText('Styled text')).toHaveCSS('border-top-style', 'solid');
    await expect(frame.getByText('Inline image stays')).toHaveCSS('background-image', /data:image/);
    expect(app.blockedRequests).toEqual([]);
  });

  test('findings 7 and 9: no link can move the frame, fixed overlays are gone, links go out normalised', async ({ openApp }) => {
    const app = await open(openApp);
    const { page } = app;
    await page.getByRole('option').filter({ hasText: 'Links and overlays' }).click();
    const iframe = page.locator('iframe[title="Email content"]');
    const frame = page.frameLocator('iframe[title="Email content"]');
    // Before any handler could run, nothing in the document is a navigable link.
    await expect(frame.locator('a[href], area[href], [target]')).toHaveCount(0);
    await expect(frame.locator('#overlay')).not.toHaveCSS('position', 'fixed');
    await expect(frame.getByText('Session expired')).not.toHaveCSS('position', 'sticky');
    await expect(iframe).toHaveAttribute('style', /height/);

    // A click on the body text is a click on the text, not on an invisible link.
    await frame.locator('#body-text').click();
    expect(app.openedExternally).toEqual([]);
    // The image-map area and the real link go out through the app, normalised; the frame stays put.
    await frame.locator('#area').dispatchEvent('click');
    await frame.locator('#plain').click();
    await expect.poll(() => app.openedExternally).toEqual(['https://attacker.test/area', 'https://example.test/real?x=1']);
    await expect(frame.locator('#plain')).toHaveAttribute('title', 'https://example.test/real?x=1');
    // Focusing a link (Tab) shows where it goes, as hovering does.
    await frame.locator('#plain').focus();
    await expect(page.getByRole('status', { name: 'Link target' })).toHaveText('https://example.test/real?x=1');
    await frame.locator('#phish').hover();
    await expect(page.getByRole('status', { name: 'Link target' })).toHaveText('https://bank-login.attacker.test/');
    // A link that shows one site and goes to another asks first; Cancel opens nothing.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await frame.locator('#phish').click();
    await expect.poll(() => asked).toEqual([expect.stringContaining('shows www.bank.test but goes to bank-login.attacker.test')]);
    expect(app.openedExternally).not.toContain('https://bank-login.attacker.test/');
    const frameUrls = page.frames().map((f) => f.url());
    expect(frameUrls.filter((url) => url.includes('attacker') || url.startsWith('chrome-error'))).toEqual([]);
    expect(page.frames().some((f) => f.url().endsWith('/email-frame.html'))).toBe(true);
    expect(app.blockedRequests).toEqual([]);
  });
});
