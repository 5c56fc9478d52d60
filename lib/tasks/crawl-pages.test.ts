/**
 * The every-page crawl lists the tasks' pages from the kit's map (`crawlPages` of their kits): the
 * same URLs it opened when e2e/pages.ts named each task, and a task's page on a core route adds its URLs to
 * the core's.
 */
import { describe, expect, it } from "vitest";
import { crawlPages, pageUrls, withTaskPages } from "../../e2e/pages";
import type { CrawlSeed } from "../../testkit/crawl/task-crawl";

const seed: CrawlSeed = {
  projectId: "P",
  runId: "R",
  ensembleRunId: "E",
  queueId: "Q",
  judgedVideoIds: ["V1", "V2", "V3"],
  promptlessVideoId: "V4",
  pendingVideoId: "V5",
  itemIdByRole: { reviewer: "I" },
  tasks: {
    captions: { runIds: ["C1", "C2"], captionIds: ["K1"] },
    qa: { runIds: ["A1"], questionIds: ["Q1", "Q2"] },
    construction: { curationQueueIds: ["CQ"] },
    vbench2: { runIds: ["VB"] },
  },
};
const urlsOf = (route: string) =>
  pageUrls(
    crawlPages().find((page) => page.route === route)!,
    seed,
    "owner",
  );

describe("the crawl's pages", () => {
  it("list each route once, the tasks' among them", () => {
    const routes = crawlPages().map((page) => page.route);
    expect(new Set(routes).size).toBe(routes.length);
    expect(routes).toEqual(
      expect.arrayContaining([
        "/projects/[projectId]/captions/[captionId]",
        "/projects/[projectId]/qa/[questionId]",
        "/projects/[projectId]/construction",
        "/projects/[projectId]/curation/[queueId]",
      ]),
    );
  });

  it("open the URLs the crawl opened when it named each task", () => {
    expect(urlsOf("/projects/[projectId]/runs/[runId]")).toEqual([
      "/projects/P/runs/R",
      "/projects/P/runs/E",
      "/projects/P/runs/C1",
      "/projects/P/runs/C2",
      "/projects/P/runs/A1",
      "/projects/P/runs/VB",
    ]);
    expect(urlsOf("/projects/[projectId]/vbench2")).toEqual([
      "/projects/P/vbench2",
      "/projects/P/vbench2?runId=VB",
      "/projects/P/vbench2?runId=nope&labelSetId=nope",
    ]);
    expect(urlsOf("/projects/[projectId]/runs/[runId]/label-next")).toEqual([
      "/projects/P/runs/R/label-next",
      "/projects/P/runs/R/label-next?budget=2&strata=2",
      "/projects/P/runs/A1/label-next",
    ]);
    expect(urlsOf("/projects/[projectId]/prompts")).toEqual([
      "/projects/P/prompts",
      "/projects/P/prompts?pipeline=qa&template=qa/judge-open",
    ]);
    expect(urlsOf("/projects/[projectId]/captions/[captionId]")).toEqual(["/projects/P/captions/K1"]);
    expect(urlsOf("/projects/[projectId]/qa")[1]).toBe(
      "/projects/P/qa?runId=A1&by=format_category_granularity&outcome=wrong&flag=right_without_video",
    );
    expect(urlsOf("/projects/[projectId]/qa/[questionId]")).toEqual(["/projects/P/qa/Q1", "/projects/P/qa/Q2"]);
    expect(urlsOf("/projects/[projectId]/curation")).toEqual(["/projects/P/curation"]);
    expect(urlsOf("/projects/[projectId]/curation/[queueId]")).toEqual(["/projects/P/curation/CQ"]);
    // Core pages keep their access rule when a task adds URLs to them.
    expect(
      crawlPages().find((page) => page.route === "/projects/[projectId]/runs/[runId]/label-next")!.project,
    ).toEqual({ action: "queues.manage" });
  });

  it("take a new task's pages with no edit to e2e/", () => {
    const pages = withTaskPages(crawlPages(), [
      { route: "/projects/[projectId]/toy", project: {} },
      { route: "/projects/[projectId]/runs/[runId]", urls: (s) => [`/projects/${s.projectId}/runs/TOY`] },
    ]);
    expect(
      pageUrls(
        pages.find((page) => page.route === "/projects/[projectId]/toy")!,
        seed,
        "owner",
      ),
    ).toEqual(["/projects/P/toy"]);
    expect(
      pageUrls(
        pages.find((page) => page.route === "/projects/[projectId]/runs/[runId]")!,
        seed,
        "owner",
      ).at(-1),
    ).toBe("/projects/P/runs/TOY");
    expect(() =>
      pageUrls(
        crawlPages().find((page) => page.route === "/projects/[projectId]/qa/[questionId]")!,
        { ...seed, tasks: {} },
        "owner",
      ),
    ).toThrow(/no "questionIds" of task "qa"/);
  });
});
