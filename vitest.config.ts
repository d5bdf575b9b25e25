import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 120_000,
    pool: 'forks',
    env: { POWERTOOLS_LOG_LEVEL: 'ERROR' },
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
        // Template assertions and cdk-nag: no database needed.
        test: { name: 'infra', include: ['test/infra/**/*.test.ts'] },
      },
    ],
  },
});
