import net from "node:net";
import { defineConfig, devices } from "@playwright/test";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "./e2e/chromium";

// The app under test gets a free port, chosen once in the main process; workers inherit the env.
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}
process.env.E2E_PORT ??= String(await freePort());

const browserUse = {
  ...devices["Desktop Chrome"],
  launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
};

export default defineConfig({
  testDir: "e2e",
  // Two spec files at a time share the app, its judge worker and its database: every spec makes its own accounts
  // and projects, so none sees another's rows, and the page crawl's roles run side by side too. Two keep a 2-core
  // machine busy (Chromium, the app and PostgreSQL share it: load ~7 in the crawl). PLAYWRIGHT_WORKERS=N sets it.
  // The specs that drive `npm start` and `npm run demo` rebuild the app if its sources changed, so edit nothing
  // while they run (a rebuild under the running app fails the other worker's pages).
  fullyParallel: false,
  workers: Number(process.env.PLAYWRIGHT_WORKERS ?? 2),
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [["list"], ["json"]] : [["list"]],
  globalSetup: "./e2e/global-setup.ts",
  use: {
    baseURL: `http://localhost:${process.env.E2E_PORT}`,
    // Recording a trace costs a spec ~20% more CPU (the crawl: 269 s against 325 s), and CI keeps only the printed
    // report; record one when looking into a failure: `npx playwright test --trace retain-on-failure`.
    trace: "off",
    screenshot: "only-on-failure",
    // Playwright's default is no limit: an action on an element that never becomes actionable (an option that never
    // appears, a button left disabled, a download that never starts) waited out the whole test's timeout and the
    // report named no step. With a limit the failure names the locator it waited for.
    actionTimeout: 45_000,
    navigationTimeout: 90_000,
  },
  // The first-run flow (no users yet: the sign-in page offers to create the admin) needs the empty
  // database, so its spec runs before every other, whatever the files are called.
  projects: [
    { name: "first-run", testMatch: /foundation\.spec\.ts$/, use: browserUse },
    { name: "chromium", testIgnore: /foundation\.spec\.ts$/, dependencies: ["first-run"], use: browserUse },
  ],
});
