/**
 * Remote content stays unloaded until the user presses `i`, whichever way an
 * email reaches the screen: opened, fetched ahead as a neighbour, or opened
 * cold when it is long enough to be sanitized in slices. The evidence is a
 * real HTTP server on 127.0.0.1 that the page's requests are let through to:
 * it must receive nothing before `i`, and something after (so the test can fail).
 */
import { createServer, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import { startReferenceService, type RunningService } from '../../src/server/index.ts';
import { rawMail } from '../support/mail.ts';
import { expect, test } from './fixtures.ts';

/** Every way an email has been seen to make a mail client fetch, each naming itself in the path. */
function hostileVectors(attacker: string): string {
  const a = (name: string) => `${attacker}/${name}`;
  return `
    <p id="top">Your order has shipped.</p>
    <img src="${a('img')}" alt="pixel" width="1" height="1">
    <img srcset="${a('srcset')} 1x, ${a('srcset2x')} 2x" alt="srcset">
    <picture><source srcset="${a('picture-source')}"><img src="${a('picture-img')}" alt="picture"></picture>
    <video poster="${a('poster')}" src="${a('video')}"></video>
    <audio src="${a('audio')}"></audio>
    <image src="${a('image-tag')}">
    <svg width="10" height="10"><image href="${a('svg-image')}"/><image xlink:href="${a('svg-xlink')}"/><use href="${a('svg-use')}#x"/></svg>
    <table background="${a('table-background')}"><tr><td background="${a('td-background')}">cell</td></tr></table>
    <input type="image" src="${a('input-image')}">
    <link rel="stylesheet" href="${a('link-stylesheet')}"><link rel="prefetch" href="${a('link-prefetch')}">
    <object data="${a('object')}"></object><embed src="${a('embed')}"><iframe src="${a('iframe')}"></iframe>
    <meta http-equiv="refresh" content="0;url=${a('refresh')}">
    <a ping="${a('ping')}" href="https://shop.test/">Track your parcel</a>
    <img src="x" onerror="fetch('${a('script')}')">
    <style>
      @import url(${a('import')});
      @font-face { font-family: f; src: url(${a('font')}) }
      .font { font-family: f }
      .n { .m { background: url(${a('nested')}) } }
      .n2 { & > p { background-image: url(${a('nested-amp')}) } }
      .k { --u: \\75 rl(${a('custom-escaped')}); background: var(--u) }
      .k2 { --v: url(${a('custom-plain')}); background-image: var(--v, url(${a('var-fallback')})) }
      @layer l { .l { background: url(${a('layer')}) } }
      @container (min-width: 1px) { .c { background: url(${a('container')}) } }
      @scope (.s) { p { background: url(${a('scope')}) } }
      @media screen { @supports (display: grid) { .ms { background: url(${a('media-supports')}) } } }
      .is { background: image-set("${a('image-set')}" 1x) }
      .ls { list-style-image: url(${a('list-style')}) }
    </style>
    <div class="font">font</div>
    <div class="n"><div class="m">nested</div></div>
    <div class="n2"><p>nested with &amp;</p></div>
    <div class="k">custom</div><div class="k2">custom 2</div>
    <div class="l">layer</div><div class="c">container</div><div class="s"><p>scope</p></div>
    <div class="ms">media</div><div class="is">image-set</div><ul class="ls"><li>list</li></ul>
    <div style="background:url(${a('inline-style')})">inline style</div>
    <div style="--w: url(${a('inline-custom')}); background: var(--w)">inline custom</div>
    <div style="cursor:url(${a('cursor')}),auto; border-image: url(${a('border-image')}) 30; mask-image: url(${a('mask')})">more</div>
  `;
}

/** Rows enough to take the email past the size sanitized at once (20,000 characters): the sliced path. */
const longPadding = () =>
  `<table>${Array.from({ length: 300 }, (_, i) => `<tr><td style="padding:4px">Line item ${i}</td><td>Details of the item, enough text to make the row long.</td></tr>`).join('')}</table>`;

test.describe('no remote request before i', () => {
  let service: RunningService;
  let attacker: Server;
  let attackerOrigin = '';
  const received: string[] = [];

  test.beforeAll(async () => {
    attacker = createServer((request, response) => {
      received.push(request.url ?? '');
      response.writeHead(200, { 'Content-Type': 'image/gif', 'Access-Control-Allow-Origin': '*' }).end(Buffer.from('R0lGODlhAQABAAAAACw=', 'base64'));
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    const address = attacker.address();
    attackerOrigin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    service = await startReferenceService({ teams: [{ id: 'p', token: 'privacy-token-1' }] });
    const emails = [
      { subject: 'Short hostile', html: hostileVectors(`${attackerOrigin}/short`) },
      { subject: 'Before the long one', html: '<p>An ordinary email.</p>' },
      { subject: 'Long hostile', html: hostileVectors(`${attackerOrigin}/long`) + longPadding() },
      { subject: 'Ordinary', html: '<p>Nothing to see</p>' },
    ];
    for (const [index, email] of emails.entries()) {
      const [id] = await service.inject(rawMail({ subject: email.subject, html: email.html, text: 'text part' }));
      service.service.team('p').updateEmail(id!, { createdAt: new Date(Date.UTC(2026, 10, 20 - index)) });
    }
  });
  test.afterAll(async () => {
    await service.close();
    await new Promise<void>((resolve) => attacker.close(() => resolve()));
  });
  test.beforeEach(() => {
    received.length = 0;
  });

  const open = async (openApp: Parameters<Parameters<typeof test>[2]>[0]['openApp']) => {
    const app = await openApp({ baseUrl: service.baseUrl, teamId: 'p', token: 'privacy-token-1', passThrough: [attackerOrigin] });
    await expect(app.page.getByRole('listbox', { name: 'Emails' }).getByRole('option').first()).toBeVisible();
    return app;
  };
  const frameSized = (page: Page) => expect(page.locator('iframe[title="Email content"]')).toHaveAttribute('style', /height/);
  /** Long enough for the frame's load handler, a prefetch and an idle presanitize: whatever would fire has fired. */
  const settle = (page: Page) => page.waitForTimeout(1500);

  test('an email opened: nothing, then `i` loads what the user asked for', async ({ openApp }) => {
    const { page } = await open(openApp);
    await page.getByRole('option').filter({ hasText: 'Short hostile' }).click();
    const frame = page.frameLocator('iframe[title="Email content"]');
    await expect(frame.locator('#top')).toBeVisible();
    await frameSized(page);
    await settle(page);
    expect(received).toEqual([]);
    // No overlay: nothing in the frame is fixed or sticky, nested rules included.
    const positions = await frame.locator('body').evaluate((body) => [...body.querySelectorAll('*')].map((e) => getComputedStyle(e).position));
    expect(positions.filter((p) => p === 'fixed' || p === 'sticky')).toEqual([]);
    await expect(page.getByRole('status').filter({ hasText: 'remote' })).toContainText('blocked');
    // The tester's tools that read the email (compatibility, widths, dark mode, code and link) fetch nothing either.
    await page.keyboard.press('H');
    await expect(page.getByRole('region', { name: 'HTML compatibility' })).toBeVisible();
    for (const key of ['w', 'D', 'C', 'L']) await page.keyboard.press(key);
    await settle(page);
    expect(received).toEqual([]);
    for (const key of ['w', 'w', 'D']) await page.keyboard.press(key);

    await page.keyboard.press('i');
    await expect.poll(() => received.some((path) => path.startsWith('/short/img'))).toBe(true);
    // Even after `i`, nothing that runs, navigates or pings: only images and styles' images.
    await settle(page);
    for (const never of ['script', 'refresh', 'iframe', 'object', 'embed', 'ping', 'link-stylesheet', 'link-prefetch', 'import', 'custom-escaped']) {
      expect(received.filter((path) => path === `/short/${never}`), never).toEqual([]);
    }
  });

  test('a neighbour fetched and sanitized ahead: nothing', async ({ openApp }) => {
    const { page } = await open(openApp);
    await page.getByRole('option').filter({ hasText: 'Before the long one' }).click();
    await expect(page.frameLocator('iframe[title="Email content"]').getByText('An ordinary email.')).toBeVisible();
    await settle(page);
    // The long hostile email below was fetched and presanitized in slices meanwhile.
    await page.keyboard.press('j');
    await expect(page.frameLocator('iframe[title="Email content"]').locator('#top')).toBeVisible();
    await frameSized(page);
    await settle(page);
    expect(received).toEqual([]);
  });

  test('a long email opened cold (sanitized in slices): nothing, then `i` loads', async ({ openApp }) => {
    const { page } = await open(openApp);
    await page.getByRole('option').filter({ hasText: 'Long hostile' }).click();
    const frame = page.frameLocator('iframe[title="Email content"]');
    await expect(frame.getByText('Line item 299')).toBeAttached();
    await frameSized(page);
    await settle(page);
    expect(received).toEqual([]);
    const positions = await frame.locator('body').evaluate((body) => [...body.querySelectorAll('*')].map((e) => getComputedStyle(e).position));
    expect(positions.filter((p) => p === 'fixed' || p === 'sticky')).toEqual([]);
    await page.keyboard.press('i');
    await expect.poll(() => received.some((path) => path.startsWith('/long/img'))).toBe(true);
  });
});
