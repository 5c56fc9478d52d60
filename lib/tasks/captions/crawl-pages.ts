import { taskSeedIds, type CrawlPage } from "../../../testkit/crawl/task-crawl";

/** TEST TOOL. The captions task's pages in the every-page crawl (e2e/pages.ts), from its crawl seed (./crawl-seed.ts). */
export const CAPTIONS_CRAWL_PAGES: readonly CrawlPage[] = [
  {
    route: "/projects/[projectId]/runs/[runId]",
    urls: (s) => taskSeedIds(s, "captions", "runIds").map((id) => `/projects/${s.projectId}/runs/${id}`),
  },
  {
    route: "/projects/[projectId]/captions",
    project: {},
    urls: (s) => [
      `/projects/${s.projectId}/captions`,
      `/projects/${s.projectId}/captions?flag=judge_broke_rule&model=crawl-alpha`,
    ],
  },
  {
    route: "/projects/[projectId]/captions/[captionId]",
    project: {},
    urls: (s) => taskSeedIds(s, "captions", "captionIds").map((id) => `/projects/${s.projectId}/captions/${id}`),
  },
];
