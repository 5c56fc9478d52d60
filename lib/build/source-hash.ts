import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

// What the Next.js build depends on. lib/generated is derived from prisma/schema.prisma (listed).
const INPUTS = [
  "app",
  "components",
  "lib",
  "public",
  "prisma/schema.prisma",
  "next.config.ts",
  "proxy.ts",
  "instrumentation.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "package.json",
];
const SKIP = new Set(["node_modules", ".next", ".data", "generated", "ffmpeg"]);

/** A hash over every file the production build is made from, to tell whether .next is stale. */
export function sourceHash(root: string): string {
  const hash = createHash("sha256");
  const visit = (relative: string) => {
    const absolute = path.join(root, relative);
    if (!fs.existsSync(absolute)) return;
    const stat = fs.statSync(absolute);
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(absolute).sort()) {
        if (!SKIP.has(entry) && !entry.endsWith(".test.ts")) visit(path.join(relative, entry));
      }
    } else {
      hash.update(relative).update("\0").update(fs.readFileSync(absolute)).update("\0");
    }
  };
  for (const input of INPUTS) visit(input);
  return hash.digest("hex");
}

const STAMP = ".next/framejury-source-hash";

export function buildIsCurrent(root: string): boolean {
  const stamp = path.join(root, STAMP);
  if (!fs.existsSync(path.join(root, ".next/BUILD_ID")) || !fs.existsSync(stamp)) return false;
  return fs.readFileSync(stamp, "utf8") === sourceHash(root);
}

export function markBuildCurrent(root: string): void {
  fs.writeFileSync(path.join(root, STAMP), sourceHash(root));
}
