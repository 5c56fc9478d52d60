import { describe, expect, it } from "vitest";
import { crawlPages } from "../../e2e/pages";
import { projectNav, projectNavItems } from "./project-nav";

describe("project navigation bar", () => {
  it("asks the same action of each link as its page does (e2e/pages.ts), so no role sees a link to a 403", () => {
    for (const item of projectNav()) {
      const page = crawlPages().find((p) => p.route === `/projects/[projectId]${item.path}`);
      expect(page, `a crawled page for ${item.path || "the overview"}`).toBeDefined();
      expect(page!.project?.action ?? "project.view", item.id).toBe(item.action);
    }
  });

  it("shows each role only what it may open", () => {
    const ids = (role: "owner" | "reviewer" | "viewer") => projectNavItems("p1", role).map((i) => i.id);
    expect(ids("owner")).toEqual(projectNav().map((i) => i.id));
    expect(ids("viewer")).not.toContain("import");
    expect(ids("viewer")).not.toContain("adjudication");
    expect(ids("reviewer")).not.toContain("import");
    for (const role of ["owner", "reviewer", "viewer"] as const) {
      expect(ids(role)).toEqual(expect.arrayContaining(["videos", "judge", "queues", "agreement", "captions", "qa", "calibration", "construction", "settings"]));
    }
    expect(projectNavItems("p1", "viewer").find((i) => i.id === "videos")!.href).toBe("/projects/p1/videos");
  });
});
