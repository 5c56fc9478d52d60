import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";
import {
  forbiddenReaches,
  fullImportGraph,
  importCircles,
  ROOT,
  runtimeImportGraph,
  sourcesUnder,
} from "./lib/import-graph";
import { ALLOWED, layerViolations, LIB_LAYERS, rankOf, unitImports, unitOf } from "./lib/layer-table";

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
 * - core: lib/ (plain TypeScript), with the port to the tasks (lib/task-modules/: the contracts a task folder
 *   fulfils, the installed declarations and modules the core reads, the catalogues) and lib/tasks/*.ts but the
 *   registry's files;
 * - task: a task's own folder, lib/tasks/<id>/ (its route handlers are app code);
 * - registry: what builds the tasks into the catalogue: the composition root (lib/app-context/), the task modules'
 *   list (lib/tasks/modules.ts), the declarations' registry (lib/tasks/registry.ts, also imported in the browser) and
 *   the generated lists they read;
 * - component: components/ (a task's pages, components/tasks/<id>/pages, are app code that app/ mounts);
 * - app: app/, the root files Next.js runs (instrumentation, proxy), a task's pages and route handlers, and the route
 *   wrappers (ROUTE_WRAPPERS): each Next.js bundle's entry into lib/, which builds the application context.
 */
const REGISTRY = new Set([
  "lib/tasks/modules.ts",
  "lib/tasks/registry.ts",
  "lib/generated/tasks/modules.ts",
  "lib/generated/tasks/declarations.ts",
]);

/** The route wrappers and what only they use: they call the composition root (lib/app-context) for each request. */
const ROUTE_WRAPPERS = new Set(["lib/api/handler.ts", "lib/api/with-project.ts", "lib/api/auth-request-guard.ts"]);

function layerOf(file: string): Layer {
  if (
    file.startsWith("app/") ||
    ROUTE_WRAPPERS.has(file) ||
    !file.includes("/") ||
    /^components\/tasks\/[^/]+\/pages\//.test(file) ||
    /^lib\/tasks\/[^/]+\/routes\//.test(file)
  )
    return "app";
  if (file.startsWith("components/")) return "component";
  if (REGISTRY.has(file) || file.startsWith("lib/app-context/")) return "registry";
  if (/^lib\/tasks\/[^/]+\//.test(file)) return "task";
  return "core";
}

const rank = (layer: Layer) => LAYERS.indexOf(layer);

/** Everything that runs in the app and its workers; the test harness and Prisma's generated client aside. */
function appFiles(): string[] {
  return [
    ...sourcesUnder("lib"),
    ...sourcesUnder("components"),
    ...sourcesUnder("app"),
    ...sourcesUnder("instrumentation.ts"),
    ...sourcesUnder("proxy.ts"),
  ].filter((file) => !file.includes("/testkit/testing/") && !file.includes("/lib/generated/prisma/"));
}

function appGraph() {
  return runtimeImportGraph(appFiles());
}

/** A file of one task's own folder under lib/ (lib/tasks/<id>/…). */
const inTaskFolder = (file: string) => /^lib\/tasks\/[^/]+\//.test(file);

/** The core's files: lib/ outside the tasks' folders, the composition root, the registry's lists and generated code. */
function coreFiles(graph: Map<string, Set<string>>): string[] {
  return [...graph.keys()].filter(
    (file) => file.startsWith("lib/") && layerOf(file) === "core" && !file.startsWith("lib/generated/"),
  );
}

/** Circles madge finds in `paths` with type-only imports counted, Prisma's generated client aside. */
async function madgeCircles(paths: string[], baseDir: string): Promise<string[][]> {
  const result = await madge(paths, {
    baseDir,
    fileExtensions: ["ts", "tsx"],
    tsConfig: path.join(ROOT, "tsconfig.json"),
    excludeRegExp: [/lib\/generated\/prisma\//, /\.test\.tsx?$/],
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  } as Parameters<typeof madge>[1]);
  return result.circular();
}

/** A folder of `files` (name → source) under the system's temporary folder, for a planted graph. */
function plantedFolder(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-layers-"));
  for (const [name, source] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), source);
  }
  return dir;
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

  it("finds what a file reaches through a chain of imports, and a circle made of type imports only", () => {
    const planted = new Map([
      ["lib/videos/filter.ts", new Set(["lib/reviews/target.ts"])],
      ["lib/reviews/target.ts", new Set(["lib/generated/tasks/declarations.ts"])],
      ["lib/generated/tasks/declarations.ts", new Set(["lib/tasks/toy/declarations.ts"])],
      ["lib/tasks/toy/declarations.ts", new Set<string>()],
      ["lib/stats/quantile.ts", new Set<string>()],
    ]);
    expect(forbiddenReaches(planted, ["lib/videos/filter.ts", "lib/stats/quantile.ts"], inTaskFolder)).toEqual([
      "lib/videos/filter.ts → lib/reviews/target.ts → lib/generated/tasks/declarations.ts → lib/tasks/toy/declarations.ts",
    ]);
    const dir = plantedFolder({
      "a.ts": 'import type { B } from "./b";\nexport interface A { b: B }\n',
      "b.ts": 'import type { A } from "./a";\nexport interface B { a?: A }\n',
    });
    const files = [path.join(dir, "a.ts"), path.join(dir, "b.ts")];
    expect(importCircles(runtimeImportGraph(files))).toEqual([]);
    expect(importCircles(fullImportGraph(files))).toHaveLength(1);
  });

  it("madge finds a planted circle of type imports (so its empty answer below means something)", async () => {
    const dir = plantedFolder({
      "a.ts": 'import type { B } from "./b";\nexport interface A { b: B }\n',
      "b.ts": 'import type { A } from "./a";\nexport interface B { a?: A }\n',
    });
    expect(await madgeCircles([dir], dir)).toEqual([["a.ts", "b.ts"]]);
  });

  it("no core file reaches a task's own folder at run time, through any chain of imports", () => {
    const core = coreFiles(graph);
    expect(core.length).toBeGreaterThan(300);
    expect(forbiddenReaches(graph, core, inTaskFolder)).toEqual([]);
  });

  it("has no circle of files with type imports counted (our graph and madge's)", async () => {
    expect(importCircles(fullImportGraph(appFiles()))).toEqual([]);
    expect(await madgeCircles(["lib", "components", "app", "scripts"], ROOT)).toEqual([]);
    // madge parses every source file again with TypeScript: about 100 s on two idle cores, and the suite's other
    // files share those cores, so the bound is only there to end a hung parse.
  }, 600_000);

  it("runs fewer than 15 arrows from a lower layer up to a higher one", () => {
    const up = arrowsUp(graph);
    expect(up.length, up.join("\n")).toBeLessThan(15);
  });
});

/*
 * The layer table of lib/ (scripts/layers.json, drawn in docs/architecture.md): each folder imports its own layer's
 * folders (no circle among them) and lower layers', never a higher layer's, with type imports counted (a type from
 * a higher layer is still a reason to read it first). The table's `allowed` list names the imports that still break
 * it, each with its files and why; the goal is an empty list. A new breaking import fails, and so does an allowed
 * one that no longer occurs, so the list only shrinks. eslint.config.mjs reads the same table.
 */
describe("the layer table of lib/", () => {
  const libFiles = sourcesUnder("lib").filter((file) => !file.includes("/lib/generated/prisma/"));

  it("puts every lib/ file in a unit of a layer, with a job written for each layer", () => {
    const units = new Set([...runtimeImportGraph(libFiles).keys()].map(unitOf));
    expect(units.size).toBeGreaterThan(45);
    for (const layer of LIB_LAYERS) expect(layer.job.length, layer.name).toBeGreaterThan(20);
    expect(unitOf("lib/tasks/registry.ts")).toBe("lib/tasks");
    expect(unitOf("lib/tasks/qa/steps.ts")).toBe("lib/tasks/*");
    expect(unitOf("lib/tasks/qa/routes/run-qa.ts")).toBe("lib/tasks/*/routes");
    expect(rankOf("lib/db")).toBeLessThan(rankOf("lib/judge"));
  });

  it("finds an upward import, a circle within a layer, a new file of an allowed import and a stale allowance", () => {
    const planted = new Map([
      ["lib/db/a.ts", new Set(["lib/judge/b.ts"])],
      ["lib/judge/b.ts", new Set(["lib/items/c.ts"])],
      ["lib/items/c.ts", new Set(["lib/reviews/d.ts"])],
      ["lib/reviews/d.ts", new Set(["lib/items/i.ts"])],
      ["lib/items/i.ts", new Set<string>()],
      ["lib/videos/e.ts", new Set(["lib/spans/f.ts"])],
      ["lib/videos/g.ts", new Set(["lib/spans/f.ts"])],
    ]);
    const allowed = [
      { from: "lib/videos", to: "lib/spans", files: ["lib/videos/e.ts"], why: "planted" },
      { from: "lib/storage", to: "lib/videos", files: ["lib/storage/h.ts"], why: "planted" },
    ];
    expect(layerViolations(unitImports(planted), allowed)).toEqual([
      "lib/db → lib/judge: lib/db/a.ts",
      "lib/videos → lib/spans (allowed for other files): lib/videos/g.ts",
      "stale allowance: lib/storage → lib/videos no longer occurs",
      "circle: lib/items, lib/reviews",
    ]);
  });

  it("has no import from a higher layer and no circle among folders but the allowed ones (type imports counted)", () => {
    expect(layerViolations(unitImports(fullImportGraph(libFiles)), ALLOWED)).toEqual([]);
  });
});
