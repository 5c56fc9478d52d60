import { afterEach, describe, expect, it, vi } from "vitest";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";
import { builtInDeclarations } from "./installed-declarations";
import { builtInCatalogue } from "./task-catalogue";

const INSTALLED = Symbol.for("framejury.taskDeclarations");
const shared = globalThis as { [INSTALLED]?: unknown };

describe("the installed task declarations (the core's port to the built-in declarations)", () => {
  const installed = shared[INSTALLED];
  afterEach(() => {
    shared[INSTALLED] = installed;
  });

  it("are the registry's, and the built-in catalogue is built from them", () => {
    expect(builtInDeclarations()).toBe(BUILT_IN_DECLARATIONS);
    const catalogue = builtInCatalogue();
    expect(catalogue.tasks).toHaveLength(BUILT_IN_DECLARATIONS.tasks.length);
    catalogue.tasks.forEach((task, i) => expect(task).toBe(BUILT_IN_DECLARATIONS.tasks[i]));
    expect(builtInDeclarations().tasks.length).toBeGreaterThan(0);
  });

  it("refuse a read before anything was installed, naming the import to add", async () => {
    delete shared[INSTALLED];
    vi.resetModules();
    const fresh = await import("./installed-declarations");
    expect(() => fresh.builtInDeclarations()).toThrow(/import "lib\/tasks\/registry"/);
  });

  it("are read by a copy of the port that did not install them (another bundle of the same process)", async () => {
    vi.resetModules();
    const fresh = await import("./installed-declarations");
    expect(fresh.builtInDeclarations()).toBe(BUILT_IN_DECLARATIONS);
  });
});
