/**
 * Renders resources/icon/icon.svg to the PNG sizes the window and
 * electron-builder use (it derives .icns and .ico from them), in the same
 * headless Chromium the end-to-end tests drive. Run: npm run icons
 */
import { readFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';

const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const here = resolve('resources/icon');
const svg = await readFile(join(here, 'icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage();
  await mkdir(join(here, 'png'), { recursive: true });
  for (const size of SIZES) {
    await page.setViewportSize({ width: size, height: size });
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg style="display:block;width:${size}px;height:${size}px" `)}</body></html>`);
    const target = join(here, 'png', `${size}x${size}.png`);
    await page.screenshot({ path: target, omitBackground: true });
    console.log(target);
  }
} finally {
  await browser.close();
}
