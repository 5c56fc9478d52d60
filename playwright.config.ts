import net from "node:net";
import { defineConfig, devices } from "@playwright/test";

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

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const browserUse = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: chromiumPath,
    // Debian's Chromium as root in a container, on a machine without internet.
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  },
};

export default defineConfig({
  testDir: "e2e",
  // Two spec files at a time share the app, its judge worker and its database: every spec makes its own accounts
  // and projects, so none sees another's rows, and the page crawl's roles run side by side too. One worker used
  // under one core on average (specs mostly wait on pages, the worker and the stub). PLAYWRIGHT_WORKERS=N sets it.
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
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  // The first-run flow (no users yet: the sign-in page offers to create the admin) needs the empty
  // database, so its spec runs before every other, whatever the files are called.
  projects: [
    { name: "first-run", testMatch: /foundation\.spec\.ts$/, use: browserUse },
    { name: "chromium", testIgnore: /foundation\.spec\.ts$/, dependencies: ["first-run"], use: browserUse },
  ],
});
