import { defineConfig } from '@playwright/test';

import { chromiumPath as executablePath } from './test/support/browser.ts';

// Every reference service a spec starts checks its answers against its routes' response schemas.
process.env.INBOX_DESK_CHECK_RESPONSES = '1';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
});
