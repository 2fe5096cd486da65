import { defineConfig } from 'vitest/config';

// One run, several projects: `npm test` runs them all and prints one closing line.
export default defineConfig({
  test: {
    reporters: ['default', './tests/helpers/summaryReporter.ts'],
    // vitest's default is cores − 1, one worker on a 2-core machine; most files wait on engines.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['shared/**/*.test.ts', 'functions/**/*.test.ts', 'scripts/**/*.test.ts'],
          environment: 'node',
          // Milliseconds alone, but the lanes share two cores: a test of an in-memory store once
          // waited past the 5 s default for its worker's turn (2026-11-25).
          testTimeout: 30_000,
        },
      },
      {
        extends: './web/vite.config.ts',
        test: {
          name: 'web',
          root: '.',
          include: ['web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['./web/src/test/setup.ts'],
          // One module graph per worker: each file importing Fluent and the app anew cost ~3 s of
          // setup a file, 156 of the project's 200 s alone (2026-11-28: 200 s → 59 s, CPU 384 → 108 s).
          // web/src/test/setup.ts resets the module state a test could leave behind.
          isolate: false,
          // A Fluent table rendered in jsdom takes seconds of CPU when the lanes share two cores.
          testTimeout: 60_000,
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
        // Tests that start, kill and restart stacks of their own (no shared stack): their own lane
        // can run beside the integration project's.
        test: {
          name: 'restarts',
          include: ['tests/restarts/**/*.test.ts'],
          environment: 'node',
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
          // A screen answers within a second when idle; several when the other lanes load the CPU.
          expect: { poll: { timeout: 15_000 } },
          fileParallelism: false,
        },
      },
      {
        // Data-layer contract tests: one engine for the project (dynalite here, DynamoDB Local in fidelity), a table a file.
        test: {
          name: 'data',
          include: ['tests/data/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['./tests/data/sharedEngine.ts'],
          // A crash test walks every write of its sequence, recovering after each: ~10 s alone, and
          // six times that when the suite's five engine projects share the two cores.
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        // The checker against the sandbox site in real Chromium, without the whole stack.
        test: {
          name: 'checker',
          include: ['tests/checker/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        // The bank poller with a clock the test moves, on its own dynalite and a fake bank.
        test: {
          name: 'bank',
          include: ['tests/bank/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['./tests/data/sharedEngine.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'infra',
          include: ['tests/infra/**/*.test.ts'],
          environment: 'node',
          // Every test App's assembly in one folder, removed when the project ends (assemblies.ts).
          globalSetup: ['./tests/infra/assemblies.ts'],
          testTimeout: 120_000,
          // One module graph per worker: aws-cdk-lib took ~7 s to import anew in each of 13 files.
          isolate: false,
        },
      },
      {
        test: {
          name: 'fidelity',
          include: ['tests/data/**/*.test.ts'],
          env: { DYNAMO_ENGINE: 'dynamodb-local' },
          environment: 'node',
          globalSetup: ['./tests/data/sharedEngine.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Files in parallel, as in the data project: each has its own table on the project's one
          // JVM, so running them one after another (a JVM a file until 2026-11-28) only left its
          // lane ~280 s of serial tail after the others had ended.
        },
      },
    ],
  },
});
