import { describe, expect, it } from "vitest";
import { crawlPages } from "../../e2e/pages";
import { projectNavGroups } from "./project-nav";
import { projectNav, projectNavItems } from "../../testkit/testing/project-nav-items";
import { BUILT_IN_DECLARATIONS } from "../tasks/registry";

describe("project navigation bar", () => {
  it("asks the same action of each link as its page does (e2e/pages.ts), so no role sees a link to a 403", () => {
    for (const item of projectNav(BUILT_IN_DECLARATIONS)) {
      const page = crawlPages().find((p) => p.route === `/projects/[projectId]${item.path}`);
      expect(page, `a crawled page for ${item.path || "the overview"}`).toBeDefined();
      expect(page!.project?.action ?? "project.view", item.id).toBe(item.action);
    }
  });

  it("shows each role only what it may open", () => {
    const ids = (role: "owner" | "reviewer" | "viewer") =>
      projectNavItems("p1", role, BUILT_IN_DECLARATIONS).map((i) => i.id);
    expect(ids("owner")).toEqual(projectNav(BUILT_IN_DECLARATIONS).map((i) => i.id));
    expect(ids("viewer")).not.toContain("import");
    expect(ids("viewer")).not.toContain("adjudication");
    expect(ids("reviewer")).not.toContain("import");
    for (const role of ["owner", "reviewer", "viewer"] as const) {
      expect(ids(role)).toEqual(
        expect.arrayContaining([
          "videos",
          "judge",
          "queues",
          "agreement",
          "captions",
          "qa",
          "calibration",
          "construction",
          "settings",
        ]),
      );
    }
    expect(projectNavItems("p1", "viewer", BUILT_IN_DECLARATIONS).find((i) => i.id === "videos")!.href).toBe(
      "/projects/p1/videos",
    );
  });

  it("keeps the tabs of the tasks a project uses in the bar and puts the other tasks' under More tasks", () => {
    const { main, moreTasks } = projectNavGroups("p1", "viewer", new Set(["vbench2"]), BUILT_IN_DECLARATIONS);
    const mainIds = main.map((i) => i.id);
    const moreIds = moreTasks.map((i) => i.id);
    expect(mainIds).toContain("vbench2");
    expect(mainIds).toEqual(
      expect.arrayContaining(["overview", "videos", "judge", "queues", "calibration", "settings"]),
    );
    for (const id of ["captions", "qa", "construction"]) {
      expect(mainIds).not.toContain(id);
      expect(moreIds).toContain(id);
    }
    // Every link the role may open is in one place or the other, once, each group in the bar's order.
    const all = projectNavItems("p1", "viewer", BUILT_IN_DECLARATIONS).map((i) => i.id);
    expect([...mainIds, ...moreIds].sort()).toEqual([...all].sort());
    expect(mainIds).toEqual(all.filter((id) => mainIds.includes(id)));
    expect(moreIds).toEqual(all.filter((id) => moreIds.includes(id)));
    // A project using no task yet has every task's link under the menu.
    expect(projectNavGroups("p1", "viewer", new Set(), BUILT_IN_DECLARATIONS).main.map((i) => i.id)).not.toContain(
      "vbench2",
    );
  });
});
