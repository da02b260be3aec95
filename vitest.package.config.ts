import { defineConfig } from 'vitest/config';

// The packaging test (npm run test:package): builds a package and looks inside it.
export default defineConfig({
  test: {
    include: ['test/package/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
