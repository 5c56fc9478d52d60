import { taskSeedIds, type CrawlPage } from "../../../testkit/crawl/task-crawl";

/** TEST TOOL. The construction task's pages in the every-page crawl (e2e/pages.ts), from its crawl seed (./crawl-seed.ts). */
export const CONSTRUCTION_CRAWL_PAGES: readonly CrawlPage[] = [
  {
    route: "/projects/[projectId]/construction",
    project: {},
    urls: (s) => [
      `/projects/${s.projectId}/construction`,
      `/projects/${s.projectId}/construction?fate=pending&filter=blind&dataset=hirest&page=2`,
      `/projects/${s.projectId}/construction?fate=bogus&set=no-such-set`,
    ],
  },
  { route: "/projects/[projectId]/curation", project: {} },
  {
    route: "/projects/[projectId]/curation/[queueId]",
    project: {},
    urls: (s) =>
      taskSeedIds(s, "construction", "curationQueueIds").map((id) => `/projects/${s.projectId}/curation/${id}`),
  },
];
