import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

// The production build the e2e tests run against: nothing server-only may reach the browser's chunks.
test("the browser bundle carries no secrets and no server-only code", () => {
  const dir = path.resolve(".next/static");
  const files: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".js")) files.push(full);
    }
  };
  walk(dir);
  expect(files.length).toBeGreaterThan(10);
  const forbidden = [
    "APP_SECRET",
    "DATABASE_URL",
    "OPENAI_API_KEY",
    "apiKeyEncrypted",
    "decryptSecret",
    "pg_advisory_lock",
    "@node-rs/argon2",
  ];
  const found = files.flatMap((file) => {
    const text = fs.readFileSync(file, "utf8");
    return forbidden
      .filter((needle) => text.includes(needle))
      .map((needle) => `${path.relative(dir, file)}: ${needle}`);
  });
  expect(found).toEqual([]);
});
