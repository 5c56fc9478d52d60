import type { ProjectAction } from "../lib/authz/permissions";

/**
 * Every page of the app, in one list: the page crawl (e2e/page-crawl.spec.ts) opens each of them as
 * every role, and fails when an `app/**\/page.tsx` is missing here. A new page joins the crawl by
 * being listed, with how to fill its params from the crawl's seed.
 */

export type CrawlRole = "owner" | "reviewer" | "viewer" | "outsider" | "admin" | "signedOut";

/** What the crawl seeds (e2e/crawl-seed.ts): one project with something on every page. */
export interface CrawlSeed {
  projectId: string;
  runId: string;
  queueId: string;
  /** Videos judged in the run (with reviewers' judgments on the first). */
  judgedVideoIds: string[];
  /** Has frames, but no prompt and no judgments. */
  promptlessVideoId: string;
  /** Registered through the API, waiting for frames. */
  pendingVideoId: string;
  /** Captions of two models judged by a style and a content run (one of each type: action, brief, detail, poem). */
  captionIds: string[];
  /** The style run and the content run. */
  captionRunIds: string[];
  /** Questions (mc and open) answered by a QA run with a text-only baseline. */
  questionIds: string[];
  /** The QA run. */
  qaRunIds: string[];
  /** A curation queue over a candidate set of Q&A construction (scope "all", so it has items). */
  curationQueueId: string;
  /** The queue item each reviewing role holds; others open the reviewer's. */
  itemIdByRole: Partial<Record<CrawlRole, string>>;
}

export interface CrawlPage {
  /** The route as in app/, without route groups: `/projects/[projectId]/videos/[videoId]`. */
  route: string;
  /** Project pages: the action the page asks of the member (default `project.view`). */
  project?: { action?: ProjectAction };
  /** Site pages only the site admin may open (others get the 404). */
  adminOnly?: boolean;
  /** The page signed-in users are sent away from (the sign-in page → /). */
  signedOutOnly?: boolean;
  /** The concrete URLs to open; default: the route with its params filled from the seed. */
  urls?: (seed: CrawlSeed, role: CrawlRole) => string[];
}

export const PAGES: CrawlPage[] = [
  { route: "/", },
  { route: "/sign-in", signedOutOnly: true },
  { route: "/settings/api-keys" },
  { route: "/settings/password" },
  { route: "/docs/api" },
  { route: "/admin/users", adminOnly: true },
  { route: "/projects/[projectId]", project: {} },
  {
    route: "/projects/[projectId]/videos",
    project: {},
    urls: (s) => [`/projects/${s.projectId}/videos`, `/projects/${s.projectId}/videos?runId=${s.runId}&sort=overall&dir=desc`, `/projects/${s.projectId}/videos?status=pending_extraction`, `/projects/${s.projectId}/videos?view=grid`],
  },
  {
    route: "/projects/[projectId]/videos/[videoId]",
    project: {},
    urls: (s) => [...s.judgedVideoIds, s.promptlessVideoId, s.pendingVideoId].map((id) => `/projects/${s.projectId}/videos/${id}`),
  },
  {
    route: "/projects/[projectId]/compare",
    project: {},
    urls: (s) => [`/projects/${s.projectId}/compare`, `/projects/${s.projectId}/compare?videoId=${s.judgedVideoIds[0]}`, `/projects/${s.projectId}/compare?videoId=${s.promptlessVideoId}`],
  },
  { route: "/projects/[projectId]/completeness", project: {} },
  { route: "/projects/[projectId]/import", project: { action: "videos.import" } },
  {
    route: "/projects/[projectId]/pending",
    project: { action: "videos.import" },
    urls: (s) => [`/projects/${s.projectId}/pending`, `/projects/${s.projectId}/pending?uniform=8`, `/projects/${s.projectId}/pending?uniform=8&resize=quarter`, `/projects/${s.projectId}/pending?uniform=16&longestSide=512`],
  },
  { route: "/projects/[projectId]/judge", project: {} },
  {
    route: "/projects/[projectId]/runs/[runId]",
    project: {},
    urls: (s) => [s.runId, ...s.captionRunIds, ...s.qaRunIds].map((id) => `/projects/${s.projectId}/runs/${id}`),
  },
  {
    route: "/projects/[projectId]/captions",
    project: {},
    urls: (s) => [`/projects/${s.projectId}/captions`, `/projects/${s.projectId}/captions?flag=judge_broke_rule&model=crawl-alpha`],
  },
  {
    route: "/projects/[projectId]/captions/[captionId]",
    project: {},
    urls: (s) => s.captionIds.map((id) => `/projects/${s.projectId}/captions/${id}`),
  },
  {
    route: "/projects/[projectId]/qa",
    project: {},
    urls: (s) => [
      `/projects/${s.projectId}/qa`,
      `/projects/${s.projectId}/qa?runId=${s.qaRunIds[0]}&by=format_category_granularity&outcome=wrong&flag=right_without_video`,
      `/projects/${s.projectId}/qa?by=category&questionFormat=open&page=2`,
    ],
  },
  {
    route: "/projects/[projectId]/qa/[questionId]",
    project: {},
    urls: (s) => s.questionIds.map((id) => `/projects/${s.projectId}/qa/${id}`),
  },
  {
    route: "/projects/[projectId]/construction",
    project: {},
    urls: (s) => [
      `/projects/${s.projectId}/construction`,
      `/projects/${s.projectId}/construction?fate=pending&filter=blind&dataset=hirest&page=2`,
      `/projects/${s.projectId}/construction?fate=bogus&set=no-such-set`,
    ],
  },
  {
    route: "/projects/[projectId]/runs/[runId]/videos/[videoId]",
    project: {},
    urls: (s) => s.judgedVideoIds.map((id) => `/projects/${s.projectId}/runs/${s.runId}/videos/${id}`),
  },
  {
    route: "/projects/[projectId]/agreement",
    project: { action: "export.read" },
    urls: (s) => [`/projects/${s.projectId}/agreement`, `/projects/${s.projectId}/agreement?runId=${s.runId}`, `/projects/${s.projectId}/agreement?truth=gold`, `/projects/${s.projectId}/agreement?view=details`, `/projects/${s.projectId}/agreement?view=details&runId=${s.runId}`],
  },
  {
    route: "/projects/[projectId]/adjudication",
    project: { action: "gold.set" },
    urls: (s) => [`/projects/${s.projectId}/adjudication`, `/projects/${s.projectId}/adjudication?runId=${s.runId}&state=open`, `/projects/${s.projectId}/adjudication?target=verdict`],
  },
  {
    route: "/projects/[projectId]/calibration",
    project: { action: "export.read" },
    urls: (s) => [`/projects/${s.projectId}/calibration`, `/projects/${s.projectId}/calibration?runId=${s.runId}&threshold=4`],
  },
  {
    route: "/projects/[projectId]/calibration/compare",
    project: { action: "export.read" },
    urls: (s) => [`/projects/${s.projectId}/calibration/compare`, `/projects/${s.projectId}/calibration/compare?runIds=${s.runId}&runIds=${s.runId}&reference=consensus`],
  },
  {
    route: "/projects/[projectId]/prompts",
    project: {},
    urls: (s) => [`/projects/${s.projectId}/prompts`, `/projects/${s.projectId}/prompts?pipeline=qa&template=qa/judge-open`],
  },
  {
    route: "/projects/[projectId]/runs/[runId]/label-next",
    project: { action: "queues.manage" },
    urls: (s) => [`/projects/${s.projectId}/runs/${s.runId}/label-next`, `/projects/${s.projectId}/runs/${s.runId}/label-next?budget=2&strata=2`, `/projects/${s.projectId}/runs/${s.qaRunIds[0]}/label-next`],
  },
  { route: "/projects/[projectId]/queues", project: {}, urls: (s) => [`/projects/${s.projectId}/queues`, `/projects/${s.projectId}/queues?archived=1`] },
  { route: "/projects/[projectId]/queues/new", project: { action: "queues.manage" }, urls: (s) => [`/projects/${s.projectId}/queues/new`, `/projects/${s.projectId}/queues/new?runId=${s.runId}`] },
  { route: "/projects/[projectId]/queues/[queueId]", project: {} },
  {
    route: "/projects/[projectId]/queues/[queueId]/items/[itemId]",
    project: {},
    urls: (s, role) => [`/projects/${s.projectId}/queues/${s.queueId}/items/${s.itemIdByRole[role] ?? s.itemIdByRole.reviewer}`],
  },
  { route: "/projects/[projectId]/curation", project: {} },
  { route: "/projects/[projectId]/curation/[queueId]", project: {}, urls: (s) => [`/projects/${s.projectId}/curation/${s.curationQueueId}`] },
  { route: "/projects/[projectId]/settings", project: {} },
  {
    route: "/projects/[projectId]/search",
    project: {},
    urls: (s) => [`/projects/${s.projectId}/search`, `/projects/${s.projectId}/search?q=a`, `/projects/${s.projectId}/search?q=${"x".repeat(300)}`],
  },
];

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
  const values: Record<string, string> = { projectId: seed.projectId, runId: seed.runId, queueId: seed.queueId, videoId: seed.judgedVideoIds[0]! };
  return route.replace(/\[(\w+)\]/g, (_, name: string) => {
    const value = values[name];
    if (!value) throw new Error(`e2e/pages.ts: no seed value for [${name}] in ${route}; give the page its own urls().`);
    return value;
  });
}

export function pageUrls(page: CrawlPage, seed: CrawlSeed, role: CrawlRole): string[] {
  return page.urls ? page.urls(seed, role) : [fillRoute(page.route, seed)];
}
