import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";

const dir = path.resolve(".next/static");

/** The browser's chunks of the production build the e2e tests run against. */
function browserChunks(): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".js")) files.push(full);
    }
  };
  walk(dir);
  return files;
}

/** Each of `needles` some chunk contains, as `<chunk>: <needle>`. */
function foundIn(files: string[], needles: string[]): string[] {
  return files.flatMap((file) => {
    const text = fs.readFileSync(file, "utf8");
    return needles.filter((needle) => text.includes(needle)).map((needle) => `${path.relative(dir, file)}: ${needle}`);
  });
}

// Nothing server-only may reach the browser's chunks.
test("the browser bundle carries no secrets and no server-only code", () => {
  const files = browserChunks();
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
  expect(foundIn(files, forbidden)).toEqual([]);
});

// Nothing of the testing-and-demo kit (testkit/, a task's kit.ts) either: its text is the stub's, a task's stub rule's
// name and a crawl page's URL, none of which the product says (testkit/kit-outside-bundle.test.ts checks the imports).
test("the browser bundle carries nothing of the testing-and-demo kit", () => {
  const files = browserChunks();
  expect(files.length).toBeGreaterThan(10);
  const kitText = [
    "This is the FrameJury stub LLM",
    "construction-best-with-video",
    "&by=format_category_granularity&outcome=wrong",
  ];
  expect(foundIn(files, kitText)).toEqual([]);
});
