// Runs only e2e/frame-extraction.spec.ts and e2e/backend-equality.spec.ts, without the app's globalSetup (no `next build`, no database):
//   npx playwright test --config e2e/harness/playwright.config.ts
// The spec serves its own harness, so it does not need the app. `npx playwright test e2e/frame-extraction.spec.ts`
// with the repo's config runs the same spec after starting the app.
import { defineConfig } from "@playwright/test";

export default defineConfig({
  testDir: "..",
  testMatch: ["frame-extraction.spec.ts", "backend-equality.spec.ts"],
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  outputDir: "../../test-results/frame-extraction",
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
    },
  },
});
