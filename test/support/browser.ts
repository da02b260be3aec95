import { existsSync } from 'node:fs';

/**
 * The browser tests, screenshots and the bench drive, as a newcomer's machine
 * has it: CHROMIUM_PATH when set; else a Chromium or Chrome installed in the
 * usual place (Debian's /usr/bin/chromium on our CI machines, which cannot
 * download browsers); else undefined, which is Playwright's own Chromium, the
 * one a desktop installs once with `npx playwright install chromium` (README).
 */
const INSTALLED = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
];

export const chromiumPath: string | undefined = process.env.CHROMIUM_PATH ?? INSTALLED.find((path) => existsSync(path));
