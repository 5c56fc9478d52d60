/**
 * TEST TOOL. What a task gives the every-page crawl (e2e/page-crawl.spec.ts): its pages (`crawlPages` of its
 * kit, testkit/task-kit.ts: plain data and URL builders, listed by e2e/pages.ts with the core's) and the data they
 * show (`crawlSeed` of its kit, run by e2e/crawl-seed.ts in TASK_FOLDER_IDS order). A new task's pages are
 * crawled with no edit to e2e/. Types only.
 */
import type { Actor } from "../../lib/auth/actor";
import type { ProjectAction } from "../../lib/authz/permissions";
import type { PrismaClient } from "../../lib/generated/prisma/client";

export type CrawlRole = "owner" | "reviewer" | "viewer" | "outsider" | "admin" | "signedOut";

/** What the crawl seeds (e2e/crawl-seed.ts): one project with something on every page. */
export interface CrawlSeed {
  projectId: string;
  runId: string;
  /** An ensemble run (two self-consistency samples, lib/ensembles) over the judged videos, made before `runId`. */
  ensembleRunId: string;
  queueId: string;
  /** Videos judged in the run (with reviewers' judgments on the first). */
  judgedVideoIds: string[];
  /** Has frames, but no prompt and no judgments. */
  promptlessVideoId: string;
  /** Registered through the API, waiting for frames. */
  pendingVideoId: string;
  /** The queue item each reviewing role holds; others open the reviewer's. */
  itemIdByRole: Partial<Record<CrawlRole, string>>;
  /** What each task's crawlSeed made, by task id (see TaskCrawlSeed). */
  tasks: Readonly<Record<string, TaskCrawlSeed>>;
}

/** A task's share of the crawl's seed: ids by name (say, `runIds`), read by its own pages' URL builders. */
export type TaskCrawlSeed = Readonly<Record<string, readonly string[]>>;

/** The ids `name` of task `taskId`'s seed (an error names what is missing, rather than a page crawled with "undefined"). */
export function taskSeedIds(seed: CrawlSeed, taskId: string, name: string): readonly string[] {
  const ids = seed.tasks[taskId]?.[name];
  if (!ids) throw new Error(`The crawl's seed has no "${name}" of task "${taskId}": its crawlSeed must return it.`);
  return ids;
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
  /** A page everyone gets, signed in or not (single sign-on's "waiting for an administrator" page). */
  public?: boolean;
  /**
   * The concrete URLs to open; default: the route with its params filled from the seed. A task's page on
   * a route the core lists too (a run's page, say) adds these URLs to the core's.
   */
  urls?: (seed: CrawlSeed, role: CrawlRole) => string[];
}

/** What a task's crawlSeed gets: the crawl's project, its judged videos, the owner's API and the stub. */
export interface CrawlSeedContext {
  baseURL: string;
  prisma: PrismaClient;
  owner: Actor;
  projectId: string;
  /** Three videos with key frames and a uniform set of 8 frames, judged in the crawl's run. */
  judgedVideoIds: readonly string[];
  /** The owner's API key's requests (JSON or multipart); a failure throws with the answer. */
  api<T>(route: string, init?: RequestInit): Promise<T>;
  /** A multipart body with `file` (bytes as fileName) and form fields. */
  upload(fields: Record<string, string>, fileName: string, bytes: Uint8Array): FormData;
  /** The stub LLM's base URL (it runs while the parts seed) and the project's endpoint on it (model stub-vision). */
  stubBaseUrl: string;
  endpointId: string;
  /** Waits until the run is done (throws when it fails or takes more than 90 s). */
  waitForRun(runId: string): Promise<void>;
}

/** `crawlSeed` of a task's kit: the task's data in the crawl's project. */
export type CrawlSeedPart = (context: CrawlSeedContext) => Promise<TaskCrawlSeed>;
