import { defineConfig } from 'vitest/config';

// End-to-end: a real browser (and the real Electron app where its binary exists) against real MCP
// servers. One test at a time: each starts Chromium plus several server processes.
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
