import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";

/*
 * The visibility layer sits below every domain that reads judge values: it imports none of them (so none
 * of them can form an import cycle through it, as videos ↔ queues and reviews ↔ queues did when the
 * policy lived in lib/queues), and it names no task's steps (the declarations say which steps score).
 * That caption results reach pages and routes only through their redacting reads is a lint rule
 * (eslint.config.mjs, checked by scripts/lint-rules.test.ts).
 */
const ROOT = path.resolve(__dirname, "../..");

function sources(folder: string): string[] {
  return fs
    .readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => path.join(folder, f));
}

/** The repository-relative modules a source imports at run time (type-only imports left out). */
function runtimeImports(file: string): string[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const found: string[] = [];
  for (const match of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+"([^"]+)"/gm)) {
    const spec = match[1]!;
    const base = spec.startsWith("@/")
      ? path.join(ROOT, spec.slice(2))
      : spec.startsWith(".")
        ? path.resolve(path.dirname(path.join(ROOT, file)), spec)
        : null;
    if (!base) continue;
    const resolved = [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find((candidate) =>
      fs.existsSync(candidate),
    );
    if (resolved) found.push(path.relative(ROOT, resolved));
  }
  return found;
}

/** Every module `files` reach through run-time imports. */
function reachable(files: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...files];
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    pending.push(...runtimeImports(file));
  }
  return seen;
}

describe("the visibility layer", () => {
  it("has sources (so an empty scan cannot pass)", () => {
    expect(sources("lib/visibility").length).toBeGreaterThan(0);
  });

  it("reaches none of the domains that read through it", () => {
    const readers = [
      "lib/queues/",
      "lib/videos/",
      "lib/reviews/",
      "lib/agreement/",
      "lib/tasks/captions/caption-leaderboard",
    ];
    const reached = [...reachable(sources("lib/visibility"))].filter((file) =>
      readers.some((prefix) => file.startsWith(prefix)),
    );
    expect(reached).toEqual([]);
  });

  it("is not reached back from what lib/queues builds on: queues depend on it, never the other way round", () => {
    const queueDependencies = ["lib/visibility", "lib/videos", "lib/reviews", "lib/judge", "lib/tasks"].flatMap(
      sources,
    );
    const intoQueues = queueDependencies.flatMap((file) =>
      runtimeImports(file)
        .filter((target) => target.startsWith("lib/queues/"))
        .map((target) => `${file} → ${target}`),
    );
    expect(intoQueues).toEqual([]);
  });

  it("names no task's step: which steps carry judge values comes from the declarations", () => {
    const steps = [...new Set(BUILT_IN_DECLARATIONS.tasks.flatMap((task) => task.metricSteps ?? []))];
    expect(steps.length).toBeGreaterThan(0);
    const hits = sources("lib/visibility").flatMap((file) => {
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      return steps.filter((step) => new RegExp(`["'\`]${step}["'\`]`).test(text)).map((step) => `${file}: ${step}`);
    });
    expect(hits).toEqual([]);
  });
});
