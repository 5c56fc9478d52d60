/**
 * What a task's part of `npm run demo` is (`demoSeed` of its kit, lib/tasks/<id>/demo-seed.ts) and
 * what it gets: testkit/demo/seed-demo-project.ts makes the demo's user, project, stub endpoint and clips, then
 * runs the task folders' parts in TASK_FOLDER_IDS order. Types only.
 */
import type { Actor } from "../../lib/auth/actor";
import type { PrismaClient } from "../../lib/generated/prisma/client";
import type { SeedingRequest } from "./seeding-client";

export interface DemoSeedContext {
  prisma: PrismaClient;
  actor: Actor;
  /** The demo project, with the clips (CLIPS, testkit/demo/demo-clips.ts) and their frame sets. */
  projectId: string;
  /** The demo project's stub endpoint (model stub-vision). */
  endpointId: string;
  /** The stub LLM's base URL, for endpoints a part adds. */
  stubBaseUrl: string;
  /** The app's API as the demo user's seeding script (a site admin): runs are queued by the app's own workers. */
  api: SeedingRequest;
  /** Uploads the first `count` demo clips, with the same frame sets, into another project (a part's own). */
  uploadClips(projectId: string, count: number, options?: ClipUploadOptions): Promise<void>;
  log(line: string): void;
}

export interface ClipUploadOptions {
  /** The generator folder the clips are imported under (default "Demo model"); another's clips are other videos. */
  generator?: string;
  /** Uniform frame sets of these counts besides the usual ones (VBench-2.0's 64). */
  uniformCounts?: number[];
}

/** When the demo starts again over a seeded database: the parts' own data, not seeded again. */
export interface DemoResumeContext {
  prisma: PrismaClient;
  actor: Actor;
  projectId: string;
  stubBaseUrl: string;
}

/** A page `npm run demo` prints at the end: `<label>: <url of path>[ — <note>]`. */
export interface DemoLink {
  label: string;
  path: string;
  note?: string;
}

export interface DemoSeedPart {
  /** Seeds the task's data in a new demo (its sets, endpoints, runs, projects); returns the pages to print. */
  seed(context: DemoSeedContext): Promise<DemoLink[]>;
  /** A later start over the seeded demo: brings the part's own data up to date (the stub's new port) and returns its pages. */
  resume?(context: DemoResumeContext): Promise<DemoLink[]>;
}
