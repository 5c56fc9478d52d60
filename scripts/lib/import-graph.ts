import fs from "node:fs";
import path from "node:path";

/*
 * The repository's import graph, read from the sources as text: what the architecture tests check (no circle of
 * files, the layers' arrows, what a core or browser-safe module reaches). The runtime graph leaves type-only imports
 * out (they load nothing); the full graph counts them, because a circle of types is still a circle to read.
 */

export const ROOT = path.resolve(import.meta.dirname, "../..");

export interface ImportEdge {
  /** The specifier as written. */
  from: string;
  /** `import type …`, or named imports that are all `type X`; an `export type … from`. */
  typeOnly: boolean;
}

/** Every static import, side-effect import, re-export and dynamic `import("…")` of a literal that runs, with whether it is type-only. */
export function importsOf(file: string): ImportEdge[] {
  const source = fs.readFileSync(file, "utf8");
  const edges: ImportEdge[] = [];
  for (const [, keyword, type, names, from] of source.matchAll(
    /^(import|export)\s+(type\s+)?([^;]*?)\s+from\s+"([^"]+)";/gm,
  )) {
    const allTypes = keyword === "import" && /^\{\s*(type\s+\w+(\s+as\s+\w+)?\s*,?\s*)+\}$/.test(names!.trim());
    edges.push({ from: from!, typeOnly: Boolean(type) || allTypes });
  }
  for (const [, from] of source.matchAll(/^import\s+"([^"]+)";/gm)) edges.push({ from: from!, typeOnly: false });
  // A dynamic import that runs (awaited, returned by an arrow, or continued with .then); `import("x").T` in a type is not one.
  for (const [, awaited, continued] of source.matchAll(
    /(?:\bawait\s+|=>\s*)import\(\s*"([^"]+)"\s*\)|\bimport\(\s*"([^"]+)"\s*\)\.then\(/g,
  ))
    edges.push({ from: (awaited ?? continued)!, typeOnly: false });
  return edges;
}

/** The repository file an import names (the `@/` alias or a relative path), or null for a package or a built-in. */
export function resolveImport(fromFile: string, specifier: string): string | null {
  const base = specifier.startsWith("@/")
    ? path.join(ROOT, specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(fromFile), specifier)
      : null;
  if (!base) return null;
  return (
    ["", ".ts", ".tsx", "/index.ts", "/index.tsx"]
      .map((ext) => base + ext)
      .find((candidate) => /\.tsx?$/.test(candidate) && fs.existsSync(candidate)) ?? null
  );
}

/** The non-test TypeScript sources below `folder` (repository-relative), as absolute paths. */
export function sourcesUnder(folder: string): string[] {
  const dir = path.join(ROOT, folder);
  if (!fs.existsSync(dir)) return [];
  if (fs.statSync(dir).isFile()) return [dir];
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.includes("node_modules"))
    .map((file) => path.join(dir, file));
}

/** The repository files (absolute paths) that `file` loads at run time: its imports less the type-only ones and packages. */
function runtimeImportsOf(file: string): string[] {
  return importsOf(file).flatMap(({ from, typeOnly }) => (typeOnly ? [] : (resolveImport(file, from) ?? [])));
}

/** The repository files (absolute paths) `file` imports, type-only imports included: what a reader must read beside it. */
function allImportsOf(file: string): string[] {
  return importsOf(file).flatMap(({ from }) => resolveImport(file, from) ?? []);
}

/** The runtime import graph of `files`: each file (repository-relative) to the repository files it loads. */
export function runtimeImportGraph(files: string[]): Map<string, Set<string>> {
  return graphOf(files, runtimeImportsOf);
}

/** The import graph of `files` with type-only imports counted: a circle here is one a reader cannot read in order. */
export function fullImportGraph(files: string[]): Map<string, Set<string>> {
  return graphOf(files, allImportsOf);
}

function graphOf(files: string[], importsOfFile: (file: string) => string[]): Map<string, Set<string>> {
  return new Map(
    files.map((file) => [
      path.relative(ROOT, file),
      new Set(importsOfFile(file).map((target) => path.relative(ROOT, target))),
    ]),
  );
}

/**
 * For each of `from` (files of the graph), the first chain of imports that ends in a file `forbidden` accepts, as
 * `a → b → c`: what the file reaches through any number of imports. Files of `from` that reach none are left out.
 */
export function forbiddenReaches(
  graph: Map<string, Set<string>>,
  from: readonly string[],
  forbidden: (file: string) => boolean,
): string[] {
  return from.flatMap((start) => {
    const cameFrom = new Map<string, string | null>([[start, null]]);
    const queue = [start];
    while (queue.length > 0) {
      const file = queue.shift()!;
      for (const next of graph.get(file) ?? []) {
        if (cameFrom.has(next)) continue;
        cameFrom.set(next, file);
        if (forbidden(next)) {
          const chain = [next];
          for (let at = cameFrom.get(next); at; at = cameFrom.get(at)) chain.unshift(at);
          return [chain.join(" → ")];
        }
        queue.push(next);
      }
    }
    return [];
  });
}

/** The circles of the graph: its strongly connected components of more than one file, or of one that imports itself (Tarjan). */
export function importCircles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)!.has(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}

/** Those of `files` (absolute paths) that load `target` at run time, directly or through the repository files they import. */
export function filesLoading(files: readonly string[], target: string): string[] {
  // The graph of everything the files load, then back from the target along its arrows reversed.
  const importers = new Map<string, string[]>();
  const pending = [...files];
  const read = new Set(pending);
  while (pending.length > 0) {
    const file = pending.pop()!;
    for (const next of runtimeImportsOf(file)) {
      importers.set(next, [...(importers.get(next) ?? []), file]);
      if (!read.has(next)) {
        read.add(next);
        pending.push(next);
      }
    }
  }
  const loading = new Set([target]);
  const back = [target];
  while (back.length > 0) {
    for (const importer of importers.get(back.pop()!) ?? []) {
      if (loading.has(importer)) continue;
      loading.add(importer);
      back.push(importer);
    }
  }
  return files.filter((file) => loading.has(file));
}
