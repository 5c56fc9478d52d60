import { TASK_KITS, type TaskKit } from "../testkit/task-kits";
import { taskSeedIds, type CrawlPage, type CrawlRole, type CrawlSeed } from "../testkit/crawl/task-crawl";

export type { CrawlPage, CrawlRole, CrawlSeed } from "../testkit/crawl/task-crawl";

/**
 * Every page of the app, in one list: the page crawl (e2e/page-crawl.spec.ts) opens each of them as
 * every role, and fails when an `app/**\/page.tsx` is missing here. A new page joins the crawl by
 * being listed, with how to fill its params from the crawl's seed: the core's pages below, a task's in its
 * kit's `crawlPages` (lib/tasks/<id>/crawl-pages.ts, listed by testkit/task-kits.ts).
 */

/** The crawl's rubric task runs (e2e/crawl-seed.ts): rubric tasks are the project's data, not a task folder. */
const rubricRunIds = (seed: CrawlSeed) => seed.tasks.rubrics?.runIds ?? [];

const CORE_PAGES: CrawlPage[] = [
  { route: "/" },
  { route: "/sign-in", signedOutOnly: true },
  { route: "/sign-in/pending", public: true },
  { route: "/settings/api-keys" },
  { route: "/settings/password" },
  { route: "/docs/api" },
  { route: "/admin/users", adminOnly: true },
  { route: "/projects/[projectId]", project: {} },
  {
    route: "/projects/[projectId]/videos",
    project: {},
    urls: (s) => [
      `/projects/${s.projectId}/videos`,
      `/projects/${s.projectId}/videos?runId=${s.runId}&sort=overall&dir=desc`,
      `/projects/${s.projectId}/videos?status=pending_extraction`,
      `/projects/${s.projectId}/videos?view=grid`,
      `/projects/${s.projectId}/videos?runId=${s.ensembleRunId}&unstable=1`,
      `/projects/${s.projectId}/videos?runId=${s.ensembleRunId}&sort=dispersion&dir=desc`,
    ],
  },
  {
    route: "/projects/[projectId]/videos/[videoId]",
    project: {},
    urls: (s) => [
      ...[...s.judgedVideoIds, s.promptlessVideoId, s.pendingVideoId].map(
        (id) => `/projects/${s.projectId}/videos/${id}`,
      ),
      // A rubric run's scores: the page reads the rubric task from the browser's registry.
      ...rubricRunIds(s).map((runId) => `/projects/${s.projectId}/videos/${s.judgedVideoIds[0]}?runId=${runId}`),
      `/projects/${s.projectId}/videos/${s.judgedVideoIds[0]}?runId=${s.ensembleRunId}`,
    ],
  },
  {
    route: "/projects/[projectId]/compare",
    project: {},
    urls: (s) => [
      `/projects/${s.projectId}/compare`,
      `/projects/${s.projectId}/compare?videoId=${s.judgedVideoIds[0]}`,
      `/projects/${s.projectId}/compare?videoId=${s.promptlessVideoId}`,
    ],
  },
  { route: "/projects/[projectId]/completeness", project: {} },
  { route: "/projects/[projectId]/import", project: { action: "videos.import" } },
  {
    route: "/projects/[projectId]/pending",
    project: { action: "videos.import" },
    urls: (s) => [
      `/projects/${s.projectId}/pending`,
      `/projects/${s.projectId}/pending?uniform=8`,
      `/projects/${s.projectId}/pending?uniform=8&resize=quarter`,
      `/projects/${s.projectId}/pending?uniform=16&longestSide=512`,
    ],
  },
  { route: "/projects/[projectId]/judge", project: {} },
  {
    route: "/projects/[projectId]/runs/[runId]",
    project: {},
    urls: (s) => [`/projects/${s.projectId}/runs/${s.runId}`, `/projects/${s.projectId}/runs/${s.ensembleRunId}`],
  },

  {
    route: "/projects/[projectId]/runs/[runId]/videos/[videoId]",
    project: {},
    urls: (s) => s.judgedVideoIds.map((id) => `/projects/${s.projectId}/runs/${s.runId}/videos/${id}`),
  },
  {
    route: "/projects/[projectId]/agreement",
    project: { action: "export.read" },
    urls: (s) => [
      `/projects/${s.projectId}/agreement`,
      `/projects/${s.projectId}/agreement?runId=${s.runId}`,
      `/projects/${s.projectId}/agreement?truth=gold`,
      `/projects/${s.projectId}/agreement?view=details`,
      `/projects/${s.projectId}/agreement?view=details&runId=${s.runId}`,
    ],
  },
  {
    route: "/projects/[projectId]/adjudication",
    project: { action: "gold.set" },
    urls: (s) => [
      `/projects/${s.projectId}/adjudication`,
      `/projects/${s.projectId}/adjudication?runId=${s.runId}&state=open`,
      `/projects/${s.projectId}/adjudication?target=verdict`,
    ],
  },
  {
    route: "/projects/[projectId]/adjudication/spans",
    project: { action: "gold.set" },
    urls: (s) => [
      `/projects/${s.projectId}/adjudication/spans`,
      `/projects/${s.projectId}/adjudication/spans?task=hallucination&state=all`,
    ],
  },
  {
    route: "/projects/[projectId]/calibration",
    project: { action: "export.read" },
    urls: (s) => [
      `/projects/${s.projectId}/calibration`,
      `/projects/${s.projectId}/calibration?runId=${s.runId}&threshold=4`,
    ],
  },
  {
    route: "/projects/[projectId]/calibration/compare",
    project: { action: "export.read" },
    urls: (s) => [
      `/projects/${s.projectId}/calibration/compare`,
      `/projects/${s.projectId}/calibration/compare?runIds=${s.runId}&runIds=${s.runId}&reference=consensus`,
    ],
  },
  {
    route: "/projects/[projectId]/runs/compare",
    project: { action: "export.read" },
    urls: (s) => [
      `/projects/${s.projectId}/runs/compare`,
      // One run (a run named twice counts once) and a run of no such id: refused on the page, not a 5xx.
      `/projects/${s.projectId}/runs/compare?runs=${s.runId},${s.runId}`,
      `/projects/${s.projectId}/runs/compare?runs=${s.runId},nosuchrun`,
    ],
  },
  {
    route: "/projects/[projectId]/prompts",
    project: {},
    urls: (s) => [`/projects/${s.projectId}/prompts`],
  },
  { route: "/projects/[projectId]/rubrics", project: {} },
  {
    route: "/projects/[projectId]/alignment",
    project: {},
    urls: (s) => [`/projects/${s.projectId}/alignment`, `/projects/${s.projectId}/alignment?id=unknown`],
  },
  {
    route: "/projects/[projectId]/runs/[runId]/label-next",
    project: { action: "queues.manage" },
    urls: (s) => [
      `/projects/${s.projectId}/runs/${s.runId}/label-next`,
      `/projects/${s.projectId}/runs/${s.runId}/label-next?budget=2&strata=2`,
    ],
  },
  {
    route: "/projects/[projectId]/runs/[runId]/leaderboard",
    project: {},
    urls: (s) => [
      `/projects/${s.projectId}/runs/${s.runId}/leaderboard`,
      `/projects/${s.projectId}/runs/${s.runId}/leaderboard?metric=verdict`,
      // An unknown metric is refused on the page, not a 5xx.
      `/projects/${s.projectId}/runs/${s.runId}/leaderboard?metric=nosuch`,
      ...rubricRunIds(s).map((runId) => `/projects/${s.projectId}/runs/${runId}/leaderboard`),
    ],
  },
  { route: "/projects/[projectId]/pairs", project: {} },
  ...(["", "/leaderboard", "/agreement", "/raters", "/gold"] as const).map((tail): CrawlPage => ({
    route: `/projects/[projectId]/pairs/[pairSetId]${tail}`,
    project: tail === "/raters" ? { action: "pairs.manage" } : tail === "/gold" ? { action: "gold.set" } : {},
    urls: (s) =>
      taskSeedIds(s, "pairwise", "pairSetIds").flatMap((id) => [
        `/projects/${s.projectId}/pairs/${id}${tail}`,
        // An aspect the set does not have is a note on the page, not a 5xx.
        ...(tail === "/leaderboard" ? [`/projects/${s.projectId}/pairs/${id}${tail}?aspect=motion`] : []),
      ]),
  })),
  {
    route: "/projects/[projectId]/queues",
    project: {},
    urls: (s) => [`/projects/${s.projectId}/queues`, `/projects/${s.projectId}/queues?archived=1`],
  },
  {
    route: "/projects/[projectId]/queues/new",
    project: { action: "queues.manage" },
    urls: (s) => [
      `/projects/${s.projectId}/queues/new`,
      `/projects/${s.projectId}/queues/new?runId=${s.runId}`,
      `/projects/${s.projectId}/queues/new?runId=${s.ensembleRunId}&unstable=1`,
    ],
  },
  { route: "/projects/[projectId]/queues/[queueId]", project: {} },
  {
    route: "/projects/[projectId]/queues/[queueId]/items/[itemId]",
    project: {},
    urls: (s, role) => [
      `/projects/${s.projectId}/queues/${s.queueId}/items/${s.itemIdByRole[role] ?? s.itemIdByRole.reviewer}`,
    ],
  },
  {
    route: "/projects/[projectId]/pairs/[pairSetId]/review",
    project: { action: "scores.review" },
    urls: (s) => [`/projects/${s.projectId}/pairs/${taskSeedIds(s, "pairReview", "pairSetIds")[0]}/review`],
  },
  { route: "/projects/[projectId]/settings", project: {} },
  {
    route: "/projects/[projectId]/search",
    project: {},
    urls: (s) => [
      `/projects/${s.projectId}/search`,
      `/projects/${s.projectId}/search?q=a`,
      `/projects/${s.projectId}/search?q=${"x".repeat(300)}`,
    ],
  },
];

/**
 * The core's pages and the task folders' (in TASK_FOLDER_IDS order): a task's page on a route the core lists
 * too adds its URLs to the core's; a task's own route is appended. A test with a task of its own passes
 * `[...TASK_KITS, itsKit]`.
 */
export function crawlPages(kits: readonly TaskKit[] = TASK_KITS): CrawlPage[] {
  return withTaskPages(
    CORE_PAGES,
    kits.flatMap((kit) => kit.crawlPages ?? []),
  );
}

export function withTaskPages(corePages: readonly CrawlPage[], taskPages: readonly CrawlPage[]): CrawlPage[] {
  const pages = corePages.map((page) => ({ ...page }));
  for (const taskPage of taskPages) {
    const listed = pages.find((page) => page.route === taskPage.route);
    if (!listed) pages.push({ ...taskPage });
    else {
      const core = { ...listed };
      listed.urls = (seed, role) => [...pageUrls(core, seed, role), ...pageUrls(taskPage, seed, role)];
    }
  }
  return pages;
}

/** `app/(app)/projects/[projectId]/page.tsx` → `/projects/[projectId]`. */
export function routeOfPageFile(file: string): string {
  const segments = file
    .replace(/\\/g, "/")
    .replace(/^app\//, "")
    .replace(/(^|\/)page\.[jt]sx?$/, "")
    .split("/")
    .filter((segment) => segment !== "" && !/^\(.*\)$/.test(segment));
  return `/${segments.join("/")}`;
}

/** The route with `[param]`s filled from the seed. */
export function fillRoute(route: string, seed: CrawlSeed): string {
  const values: Record<string, string> = {
    projectId: seed.projectId,
    runId: seed.runId,
    queueId: seed.queueId,
    videoId: seed.judgedVideoIds[0]!,
  };
  return route.replace(/\[(\w+)\]/g, (_, name: string) => {
    const value = values[name];
    if (!value) throw new Error(`e2e/pages.ts: no seed value for [${name}] in ${route}; give the page its own urls().`);
    return value;
  });
}

export function pageUrls(page: CrawlPage, seed: CrawlSeed, role: CrawlRole): string[] {
  return page.urls ? page.urls(seed, role) : [fillRoute(page.route, seed)];
}
