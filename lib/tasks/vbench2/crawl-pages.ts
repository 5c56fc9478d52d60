import { taskSeedIds, type CrawlPage } from "../../../testkit/crawl/task-crawl";

/** TEST TOOL. The VBench-2.0 task's pages in the every-page crawl (e2e/pages.ts), from its crawl seed (./crawl-seed.ts). */
export const VBENCH2_CRAWL_PAGES: readonly CrawlPage[] = [
  { route: "/projects/[projectId]/pending", urls: (s) => [`/projects/${s.projectId}/pending?uniform=64&videos=all`] },
  {
    route: "/projects/[projectId]/runs/[runId]",
    urls: (s) => taskSeedIds(s, "vbench2", "runIds").map((id) => `/projects/${s.projectId}/runs/${id}`),
  },
  {
    route: "/projects/[projectId]/vbench2",
    project: {},
    urls: (s) => [
      `/projects/${s.projectId}/vbench2`,
      `/projects/${s.projectId}/vbench2?runId=${taskSeedIds(s, "vbench2", "runIds")[0]}`,
      `/projects/${s.projectId}/vbench2?runId=nope&labelSetId=nope`,
    ],
  },
  {
    route: "/projects/[projectId]/vbench2/leaderboard",
    project: {},
    urls: (s) => [
      `/projects/${s.projectId}/vbench2/leaderboard`,
      `/projects/${s.projectId}/vbench2/leaderboard?runId=${taskSeedIds(s, "vbench2", "runIds")[0]}&samples=200`,
      `/projects/${s.projectId}/vbench2/leaderboard?runId=nope&seed=x`,
    ],
  },
];
