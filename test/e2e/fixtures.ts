import { test as base } from '@playwright/test';
import { openApp, type AppHandle, type OpenAppOptions } from './host.ts';

/**
 * `openApp` as a fixture: every app a spec opens is closed after it.
 *   test('…', async ({ openApp }) => { const { page } = await openApp({ demo: true }); … });
 */
export const test = base.extend<{ openApp: (options: OpenAppOptions) => Promise<AppHandle> }>({
  openApp: async ({ browser }, use) => {
    const opened: AppHandle[] = [];
    await use(async (options) => {
      const app = await openApp(browser, options);
      opened.push(app);
      return app;
    });
    for (const app of opened) await app.close();
  },
});

export { expect } from '@playwright/test';
