import { defineConfig } from "@playwright/test";
import base from "../../playwright.config";

// `npm run bench:review`: the e2e machinery (build if needed, fresh database, production server) for the review benchmark only.
export default defineConfig({
  ...base,
  testDir: ".",
  testMatch: /review\.bench\.ts$/,
  timeout: 600_000,
  globalSetup: "../global-setup.ts",
  projects: [{ name: "bench", use: base.projects!.find((p) => p.name === "chromium")!.use }],
});
