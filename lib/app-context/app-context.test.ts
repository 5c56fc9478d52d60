import { describe, expect, it, vi } from "vitest";
import { BUILT_IN_TASK_MODULES } from "../tasks/modules";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";
import { builtInCatalogue } from "../task-modules/task-catalogue";
import { appContext } from "./app-context";

describe("the composition root (the application context)", () => {
  it("builds the built-in catalogue from the registry's declarations and modules, once, and provides it to the core", () => {
    const context = appContext();
    expect(appContext()).toBe(context);
    expect(builtInCatalogue()).toBe(context.catalogue);
    expect(context.catalogues.builtIn).toBe(context.catalogue);
    expect(context.catalogue.tasks).toHaveLength(BUILT_IN_DECLARATIONS.tasks.length);
    context.catalogue.tasks.forEach((task, i) => expect(task).toBe(BUILT_IN_DECLARATIONS.tasks[i]));
    expect(context.catalogue.modules).toEqual(BUILT_IN_TASK_MODULES);
    expect(context.catalogue.tasks.length).toBeGreaterThan(0);
  });

  it("leaves a copy of the catalogue layer that no entry provided refusing to read, naming the call to add", async () => {
    // Another bundle's copy of the module (Next.js loads one per bundle) reads only what its own entry provided.
    vi.resetModules();
    const fresh = await import("../task-modules/task-catalogue");
    expect(() => fresh.builtInCatalogue()).toThrow(/call appContext\(\)/);
    const { catalogue } = (await import("./app-context")).appContext();
    expect(fresh.builtInCatalogue()).toBe(catalogue);
  });
});
