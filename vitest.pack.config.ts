import { defineConfig } from 'vitest/config';

// The pack smoke test (`npm run test:pack`, run by .ci/run): a clean build packed for Linux with a
// stand-in Electron, then the package checked from the outside. One file, one heavy setup.
export default defineConfig({
  test: {
    include: ['tests/pack/**/*.test.ts'],
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
