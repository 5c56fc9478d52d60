// Runs only e2e/frame-extraction.spec.ts and e2e/backend-equality.spec.ts, without the app's globalSetup (no `next build`, no database):
//   npx playwright test --config e2e/harness/playwright.config.ts
// The spec serves its own harness, so it does not need the app. `npx playwright test e2e/frame-extraction.spec.ts`
// with the repo's config runs the same spec after starting the app.
import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../chromium";

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
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
});
