import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, resolveImport as resolve, ROOT, sourcesUnder } from "../../scripts/lib/import-graph";

/*
 * Client code types the bodies it sends with the very zod schemas the routes parse (z.input of the schema, as a
 * type exported beside it), never a hand-copied shape, and the answers they read with the routes' response schemas'
 * types. What crosses into client code from a *.validation.ts or *.types.ts file is a type; and the file is
 * browser-safe all the same: following its runtime imports, nothing server-only
 * (Node.js built-ins, "server-only", the database client) is reached, so a later value import stays safe too.
 */
const SERVER_ONLY = [/^node:/, /^server-only$/, /generated\/prisma\/client$/, /\/db\/prisma$/];

const clientFiles = () =>
  [...sourcesUnder("components"), ...sourcesUnder("app")].filter((file) =>
    /^\s*["']use client["']/.test(fs.readFileSync(file, "utf8")),
  );

/** The server-only modules a file reaches through its runtime imports, each with the chain that reaches it. */
function serverOnlyReached(entry: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const { from, typeOnly } of importsOf(file)) {
      if (typeOnly) continue;
      if (SERVER_ONLY.some((pattern) => pattern.test(from))) found.push([...chain, from].join(" → "));
      const next = resolve(file, from);
      if (next) walk(next, [...chain, path.relative(ROOT, next)]);
    }
  };
  walk(entry, [path.relative(ROOT, entry)]);
  return found;
}

const PAYLOAD_TYPES: Record<string, string> = {
  "components/judge/endpoint-form.tsx": "lib/judge/endpoints/endpoint-input.validation.ts",
  "components/judge/reuse-endpoint-picker.tsx": "lib/judge/endpoints/endpoint-input.validation.ts",
  "components/videos/judgment-item.tsx": "lib/reviews/reviews.validation.ts",
  "components/adjudication/adjudication-screen.tsx": "lib/adjudication/adjudication.validation.ts",
  "components/webhooks/webhooks-card.tsx": "lib/webhooks/webhooks.validation.ts",
  "components/queues/queue-owner-controls.tsx": "lib/queues/queue-states.validation.ts",
  "components/videos/video-metadata-editor.tsx": "lib/videos/video-edits.validation.ts",
};

describe("client payloads are typed from the routes' zod schemas", () => {
  it("finds the client files (so an empty scan cannot pass)", () => {
    expect(clientFiles().length).toBeGreaterThan(40);
  });

  it("the forms that send a body type it with their route's schema, by a type-only import", () => {
    for (const [client, validation] of Object.entries(PAYLOAD_TYPES)) {
      const imports = importsOf(path.join(ROOT, client)).filter(
        ({ from }) => resolve(path.join(ROOT, client), from) === path.join(ROOT, validation),
      );
      expect(imports, `${client} imports ${validation}`).toEqual([
        { from: `@/${validation.replace(/\.ts$/, "")}`, typeOnly: true },
      ]);
      expect(fs.readFileSync(path.join(ROOT, client), "utf8"), client).toMatch(
        /satisfies \w+|: \w+(Input|Update|Request)\b/,
      );
    }
  });

  it("every *.validation.ts or *.types.ts module client code imports only types from is browser-safe", () => {
    const problems: string[] = [];
    let types = 0;
    for (const client of clientFiles()) {
      for (const { from, typeOnly } of importsOf(client)) {
        const target = resolve(client, from);
        if (!target || !/\.(validation|types)\.ts$/.test(target) || !typeOnly) continue;
        if (target.endsWith(".types.ts")) types++;
        problems.push(...serverOnlyReached(target).map((chain) => `${path.relative(ROOT, client)}: ${chain}`));
      }
    }
    expect(problems).toEqual([]);
    // The answers' types (lib/<folder>/<op>.types.ts) are among them.
    expect(types).toBeGreaterThan(0);
  });

  it("notices a server-only module reached through runtime imports (so the check above can fail)", () => {
    expect(serverOnlyReached(path.join(ROOT, "lib/judge/endpoints/endpoint-url-policy.ts")).join("\n")).toMatch(
      /node:dns/,
    );
    expect(serverOnlyReached(path.join(ROOT, "lib/judge/endpoints/endpoint-input.validation.ts"))).toEqual([]);
  });
});
