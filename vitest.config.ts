import path from "node:path";
import os from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // Component tests (*.test.tsx) pick their DOM per file with `// @vitest-environment happy-dom`.
    include: [
      "lib/**/*.test.ts",
      "testkit/**/*.test.ts",
      "app/**/*.test.ts",
      "scripts/**/*.test.ts",
      "components/**/*.test.tsx",
    ],
    globalSetup: ["testkit/testing/vitest-global-setup.ts"],
    setupFiles: ["testkit/testing/vitest-setup.ts"],
    // Files run side by side, each worker on its own database (testkit/testing/vitest-global-setup.ts). Most files wait
    // on PostgreSQL, a stub server or a child process as much as they compute, so one worker more than cores (Vitest's
    // default is one fewer, which ran a 2-core machine's files one at a time). VITEST_MAX_WORKERS overrides it.
    maxWorkers: Math.min(os.availableParallelism() + 1, 8),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // server-only throws outside a React Server environment; the modules it guards are tested here.
    server: { deps: { inline: [] } },
  },
});
