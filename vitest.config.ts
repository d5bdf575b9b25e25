import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    env: {
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      // EMF records only where a test reads them (test/integration/request-logging.test.ts).
      POWERTOOLS_METRICS_DISABLED: 'true',
      // AWS SDK v3 warns on every Node 20 process that versions after January 2027 need Node 22
      // (aws/aws-sdk-js-v3#7983); this documented switch silences it in tests and their servers.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    },
    projects: [
      {
        extends: true,
        // Everything that touches the application: one migrated database template per run.
        test: {
          name: 'app',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts', 'test/fuzz/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
      {
        extends: true,
        // Template assertions and cdk-nag: no database needed. One process, files one after
        // another without isolation, so every file reads the same synthesis of each real stage
        // (test/infra/synth.ts: realStage) instead of synthesizing it again.
        test: { name: 'infra', include: ['test/infra/**/*.test.ts'], isolate: false, fileParallelism: false },
      },
    ],
  },
});
