import { describe, expect, it } from "vitest";
import { importCircles, runtimeImportGraph, sourcesUnder } from "./lib/import-graph";

/*
 * The layers of docs/architecture.md, checked on the runtime import graph (type-only imports load nothing):
 * no circle of files, and the arrows that run from a lower layer up to a higher one, counted and named.
 * eslint.config.mjs keeps the outer boundaries file by file (scripts/lint-rules.test.ts); this test sees the
 * whole graph, so it also finds a circle that runs through several folders.
 */

/** Layers, bottom up. */
const LAYERS = ["core", "task", "registry", "component", "app"] as const;
type Layer = (typeof LAYERS)[number];

/**
 * - core: lib/ (plain TypeScript), with the tasks' contract and their declarations' registry (plain data the core
 *   reads: lib/tasks/*.ts but modules.ts, lib/generated/tasks/declarations.ts);
 * - task: a task's own folder, lib/tasks/<id>/ (its route handlers are app code);
 * - registry: the task modules' install point (lib/tasks/modules.ts and the generated list it installs);
 * - component: components/ (a task's pages, components/tasks/<id>/pages, are app code that app/ mounts);
 * - app: app/, the root files Next.js runs (instrumentation, proxy), a task's pages and route handlers.
 */
function layerOf(file: string): Layer {
  if (
    file.startsWith("app/") ||
    !file.includes("/") ||
    /^components\/tasks\/[^/]+\/pages\//.test(file) ||
    /^lib\/tasks\/[^/]+\/routes\//.test(file)
  )
    return "app";
  if (file.startsWith("components/")) return "component";
  if (file === "lib/tasks/modules.ts" || file === "lib/generated/tasks/modules.ts") return "registry";
  if (/^lib\/tasks\/[^/]+\//.test(file)) return "task";
  return "core";
}

const rank = (layer: Layer) => LAYERS.indexOf(layer);

/** Everything that runs in the app and its workers; the test harness and Prisma's generated client aside. */
function appGraph() {
  const files = [
    ...sourcesUnder("lib"),
    ...sourcesUnder("components"),
    ...sourcesUnder("app"),
    ...sourcesUnder("instrumentation.ts"),
    ...sourcesUnder("proxy.ts"),
  ].filter((file) => !file.includes("/lib/testing/") && !file.includes("/lib/generated/prisma/"));
  return runtimeImportGraph(files);
}

/** The arrows of the graph that go from a lower layer up to a higher one. */
function arrowsUp(graph: Map<string, Set<string>>): string[] {
  return [...graph].flatMap(([file, targets]) =>
    [...targets]
      .filter((target) => graph.has(target) && rank(layerOf(target)) > rank(layerOf(file)))
      .map((target) => `${file} (${layerOf(file)}) → ${target} (${layerOf(target)})`),
  );
}

describe("the layers' import graph", () => {
  const graph = appGraph();

  it("reads the whole app (so an empty scan cannot pass), and finds a circle where there is one", () => {
    expect(graph.size).toBeGreaterThan(700);
    const planted = new Map([
      ["a.ts", new Set(["b.ts"])],
      ["b.ts", new Set(["c.ts"])],
      ["c.ts", new Set(["a.ts"])],
      ["d.ts", new Set(["a.ts"])],
    ]);
    expect(importCircles(planted)).toEqual([["a.ts", "b.ts", "c.ts"]]);
  });

  it("has no circle of files", () => {
    expect(importCircles(graph)).toEqual([]);
  });

  it("runs fewer than 15 arrows from a lower layer up to a higher one", () => {
    const up = arrowsUp(graph);
    expect(up.length, up.join("\n")).toBeLessThan(15);
  });
});
