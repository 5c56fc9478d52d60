import { defineConfig } from "@playwright/test";
import base from "../../playwright.config";

// `npm run bench:pair-drift`: the e2e machinery (build if needed, fresh database, production server) for the pair
// review players' drift benchmark only.
export default defineConfig({
  ...base,
  testDir: ".",
  testMatch: /pair-drift\.bench\.ts$/,
  timeout: 900_000,
  workers: 1,
  globalSetup: "../global-setup.ts",
  projects: [{ name: "bench", use: base.projects!.find((p) => p.name === "chromium")!.use }],
});
