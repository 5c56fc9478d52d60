import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    // Component tests (*.test.tsx) pick their DOM per file with `// @vitest-environment happy-dom`.
    include: ["lib/**/*.test.ts", "app/**/*.test.ts", "scripts/**/*.test.ts", "components/**/*.test.tsx"],
    globalSetup: ["lib/testing/vitest-global-setup.ts"],
    setupFiles: ["lib/testing/vitest-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // server-only throws outside a React Server environment; the modules it guards are tested here.
    server: { deps: { inline: [] } },
  },
});
