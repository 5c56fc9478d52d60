import path from "node:path";
import { describe, expect, it } from "vitest";
import { documentedRoutes } from "@/app/api/v1/documented-routes";
import { apiRouteFiles, mountedModule, openApiPathOf } from "../../../testkit/testing/route-source";
import { openApiDocument } from "./document";
import { type DescribedHandler, HTTP_METHODS } from "./route-spec";

const ROOT = path.resolve(import.meta.dirname, "../../..");

// A task writes its route handlers in its own folder (lib/tasks/<id>/routes) and mounts each with an app/ file that
// only re-exports it; the handler's wrapper call carries its description, so the task describes its routes nowhere else.
describe("the tasks' routes in the OpenAPI document", () => {
  it("hold every route a task mounts in app/, at the mount's path, with the description its handler carries", async () => {
    const mounts = apiRouteFiles().flatMap((file) => {
      const mounted = mountedModule(file);
      return mounted && /^lib\/tasks\/[^/]+\/routes\//.test(path.relative(ROOT, mounted)) ? [{ file, mounted }] : [];
    });
    // Captions, QA, construction, VBench-2.0 and hallucination each mount routes of their own.
    expect(mounts.length).toBeGreaterThan(25);
    const document = openApiDocument(documentedRoutes);
    for (const { file, mounted } of mounts) {
      const written = (await import(mounted)) as Partial<Record<string, DescribedHandler>>;
      const entry = documentedRoutes.find((route) => route.path === openApiPathOf(file));
      expect(entry, path.relative(ROOT, file)).toBeDefined();
      let described = 0;
      for (const method of HTTP_METHODS) {
        const name = method.toUpperCase() as Uppercase<typeof method>;
        // The index holds the task's own handler, handed on by the mount.
        expect(entry!.module[name], `${name} ${entry!.path}`).toBe(written[name]);
        const handler = written[name];
        if (!handler) continue;
        const operation = document.paths[entry!.path]?.[method] as
          { summary: string; description?: string } | undefined;
        expect(operation?.summary, `${name} ${entry!.path}`).toBe(handler.apiRoute.summary);
        expect(operation?.description, `${name} ${entry!.path}`).toBe(handler.apiRoute.description);
        described++;
      }
      expect(described, path.relative(ROOT, file)).toBeGreaterThan(0);
    }
  });
});
