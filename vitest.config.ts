import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// One run, several projects: `npm test` runs them all and prints one closing line.
export default defineConfig({
  test: {
    reporters: ['default', './tests/helpers/summaryReporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'functions/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./web/src/test/setup.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['./tests/helpers/globalStack.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['./tests/helpers/globalStack.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        test: { name: 'infra', include: ['tests/infra/**/*.test.ts'], environment: 'node', testTimeout: 120_000 },
      },
      {
        test: {
          name: 'fidelity',
          include: ['tests/fidelity/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
