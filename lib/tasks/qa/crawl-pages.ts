import { taskSeedIds, type CrawlPage } from "../../../testkit/crawl/task-crawl";

/** TEST TOOL. The QA task's pages in the every-page crawl (e2e/pages.ts), from its crawl seed (./crawl-seed.ts). */
export const QA_CRAWL_PAGES: readonly CrawlPage[] = [
  {
    route: "/projects/[projectId]/runs/[runId]",
    urls: (s) => taskSeedIds(s, "qa", "runIds").map((id) => `/projects/${s.projectId}/runs/${id}`),
  },
  {
    route: "/projects/[projectId]/qa",
    project: {},
    urls: (s) => [
      `/projects/${s.projectId}/qa`,
      `/projects/${s.projectId}/qa?runId=${taskSeedIds(s, "qa", "runIds")[0]}&by=format_category_granularity&outcome=wrong&flag=right_without_video`,
      `/projects/${s.projectId}/qa?by=category&questionFormat=open&page=2`,
    ],
  },
  {
    route: "/projects/[projectId]/qa/[questionId]",
    project: {},
    urls: (s) => taskSeedIds(s, "qa", "questionIds").map((id) => `/projects/${s.projectId}/qa/${id}`),
  },
  {
    route: "/projects/[projectId]/prompts",
    urls: (s) => [`/projects/${s.projectId}/prompts?pipeline=qa&template=qa/judge-open`],
  },
  {
    route: "/projects/[projectId]/runs/[runId]/label-next",
    urls: (s) => [`/projects/${s.projectId}/runs/${taskSeedIds(s, "qa", "runIds")[0]}/label-next`],
  },
];
