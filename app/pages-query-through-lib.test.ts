import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * Pages are thin: every query lives in a lib/ function that checks permission (lib/authz/permissions.ts)
 * and, for judge values, visibility (lib/visibility). A page may pass `prisma` to such a function but
 * never query with it itself: no `prisma.<model>.…`, `prisma.$queryRaw`, `prisma.$transaction` and so on.
 */
const APP = path.resolve(__dirname);

function pages(): string[] {
  return fs
    .readdirSync(APP, { recursive: true, encoding: "utf8" })
    .filter((file) => path.basename(file) === "page.tsx")
    .map((file) => path.join("app", file));
}

describe("pages query only through lib/", () => {
  it("finds the app's pages (so an empty scan cannot pass)", () => {
    expect(pages().length).toBeGreaterThan(15);
  });

  it("no page calls prisma.<model> or prisma.$<method> itself", () => {
    const hits: string[] = [];
    for (const file of pages()) {
      const lines = fs.readFileSync(path.join(APP, "..", file), "utf8").split("\n");
      lines.forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, "").replace(/^\s*\*.*$/, "").replace(/\/\*.*?\*\//g, "");
        if (/\bprisma\s*(\?\.|\.)\s*[$\w]/.test(code)) hits.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(hits).toEqual([]);
  });
});
