import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Every reference service a test starts checks its answers against its routes' response schemas.
    env: { INBOX_DESK_CHECK_RESPONSES: '1' },
  },
});
