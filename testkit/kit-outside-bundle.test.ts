/**
 * Nothing of the testing-and-demo kit reaches the browser: no file under testkit/ and no task folder's kit files
 * (kit.ts, stub rules, crawl pages and seeds, demo seed) is loaded by a client component ("use client") through any
 * chain of runtime imports. The product's contract (TaskModule, TaskFolderDeclarations) names none of them; a declaration
 * that carried crawl pages again would pull them into the browser's chunks, and this test names the chain.
 * e2e/bundle-secrets.spec.ts checks the production build's chunks for the kit's text as well.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runtimeImportGraph, sourcesUnder } from "../scripts/lib/import-graph";

/** A file of the kit: the kit's folder, or one of a task folder's kit files. */
const isKitFile = (file: string) =>
  file.startsWith("testkit/") ||
  /^lib\/tasks\/[^/]+\/(kit|stub-rules|crawl-pages|crawl-seed|demo-seed)\.ts$/.test(file);

/** Whether a source starts (after comments) with the "use client" directive: Next.js bundles it for the browser. */
function isClientEntry(file: string): boolean {
  const source = fs.readFileSync(file, "utf8").replace(/^(\s*(\/\/[^\n]*|\/\*[\s\S]*?\*\/))*\s*/, "");
  return /^["']use client["']/.test(source);
}

/** For each start, the first chain of runtime imports (`a → b → c`) that ends in a kit file; starts that reach none are left out. */
function chainsIntoKit(graph: Map<string, Set<string>>, starts: readonly string[]): string[] {
  return starts.flatMap((start) => {
    const cameFrom = new Map<string, string | null>([[start, null]]);
    for (const file of cameFrom.keys()) {
      for (const next of graph.get(file) ?? []) {
        if (cameFrom.has(next)) continue;
        cameFrom.set(next, file);
        if (!isKitFile(next)) continue;
        const chain = [next];
        for (let at = cameFrom.get(next); at; at = cameFrom.get(at)) chain.unshift(at);
        return [chain.join(" → ")];
      }
    }
    return [];
  });
}

describe("the testing-and-demo kit and the browser", () => {
  const files = ["lib", "components", "app", "testkit"].flatMap(sourcesUnder);
  const graph = runtimeImportGraph(files);
  const clientEntries = files.filter(isClientEntry).map((file) => path.relative(ROOT, file));

  it("reads the client components and what they load (so an empty scan cannot pass)", () => {
    expect(clientEntries.length).toBeGreaterThan(50);
    const reached = new Set(clientEntries);
    for (const file of reached) for (const next of graph.get(file) ?? []) reached.add(next);
    expect(reached.size).toBeGreaterThan(2 * clientEntries.length);
  });

  it("finds a chain into the kit where there is one", () => {
    const planted = new Map([
      ["components/a.tsx", new Set(["lib/tasks/toy/declarations.ts"])],
      ["lib/tasks/toy/declarations.ts", new Set(["lib/tasks/toy/crawl-pages.ts"])],
    ]);
    expect(chainsIntoKit(planted, ["components/a.tsx"])).toEqual([
      "components/a.tsx → lib/tasks/toy/declarations.ts → lib/tasks/toy/crawl-pages.ts",
    ]);
  });

  it("is loaded by no client component, through any chain of imports", () => {
    expect(chainsIntoKit(graph, clientEntries)).toEqual([]);
  });
});
