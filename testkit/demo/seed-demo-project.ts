/**
 * `npm run demo`'s data: the demo user, project, stub endpoint and clips, then each task folder's part (its kit's
 * `demoSeed`) and the example rubric tasks, all through the public API the way a user's script would.
 */
import type { Actor } from "../../lib/auth/actor";
import { createApiKey } from "../../lib/auth/api-keys";
import { createUser } from "../../lib/auth/users";
import { createPrismaClient } from "../../lib/db/prisma";
import type { PrismaClient } from "../../lib/generated/prisma/client";
import { resolveDatabase } from "../../lib/db/resolve-database";
import { createProject } from "../../lib/projects/projects";
import { TASK_KITS, type TaskKit } from "../task-kits";
import { rubricLinks, seedDemoRubrics } from "./demo-rubrics";
import { resumeDemoPairwise, seedDemoPairwise } from "./demo-pairwise";
import { CLIPS } from "./demo-clips";
import { clipUploader } from "./demo-clip-upload";
import type { DemoLink, DemoResumeContext, DemoSeedContext } from "./demo-part";
import { seedingClient } from "./seeding-client";
import { DEMO_STUB_ENDPOINT, moveDemoStubEndpoints } from "./demo-stub-endpoints";

const DEMO_EMAIL = "demo@framejury.local";
const DEMO_PASSWORD = "demo-password";
const DEMO_PROJECT = "Demo — simulated judgments";
/** The demo's account (a site admin), printed by `npm run demo`. */
export const DEMO_CREDENTIALS = { email: DEMO_EMAIL, password: DEMO_PASSWORD };

interface SeedDemoOptions {
  baseUrl: string;
  stubBaseUrl: string;
  clipsDir: string | null;
  log: (line: string) => void;
  /** Tests: fail (throw) after this many clips, as a crash in the middle of seeding would. */
  failAfterClips?: number;
}

/**
 * Creates (once) the demo user, project, stub endpoint and clips with frames, then runs each task folder's part of
 * the demo (`demoSeed` of its kit) in TASK_FOLDER_IDS order. A later start over a seeded database resumes the parts instead.
 * Returns the pages the parts want printed.
 */
export async function seedDemoProject(options: SeedDemoOptions) {
  const database = await resolveDatabase();
  const prisma = createPrismaClient(database.url);
  try {
    const actor = await demoUser(prisma);
    const existing = await prisma.project.findFirst({
      where: { name: DEMO_PROJECT, members: { some: { userId: actor.userId } } },
    });
    if (existing)
      return {
        ...DEMO_CREDENTIALS,
        projectId: existing.id,
        links: await resumeDemo(prisma, actor, existing.id, options),
      };
    const project = await createProject(prisma, actor, { name: DEMO_PROJECT });
    return { ...DEMO_CREDENTIALS, projectId: project.id, links: await seedNewDemo(prisma, actor, project.id, options) };
  } finally {
    await prisma.$disconnect();
    await database.stop();
  }
}

/** The demo's user (a site admin), created the first time. */
async function demoUser(prisma: PrismaClient): Promise<Actor> {
  let user = await prisma.user.findUnique({ where: { email: DEMO_EMAIL } });
  if (!user) {
    const created = await createUser(prisma, {
      email: DEMO_EMAIL,
      password: DEMO_PASSWORD,
      name: "Demo",
      isAdmin: true,
    });
    user = await prisma.user.findUniqueOrThrow({ where: { id: created.id } });
  }
  return { userId: user.id, email: user.email, name: user.name, isAdmin: user.isAdmin };
}

/** A later start over the seeded demo: its stub endpoints move to the stub's new port, and each part resumes. */
async function resumeDemo(prisma: PrismaClient, actor: Actor, projectId: string, options: SeedDemoOptions) {
  // The stub listens on a new port each time the demo starts: its endpoint moves, and the user's copies of it.
  await moveDemoStubEndpoints(prisma, {
    userId: actor.userId,
    demoProjectId: projectId,
    stubBaseUrl: options.stubBaseUrl,
  });
  const resume: DemoResumeContext = { prisma, actor, projectId, stubBaseUrl: options.stubBaseUrl };
  const links: DemoLink[] = [];
  for (const part of await demoParts()) if (part.resume) links.push(...(await part.resume(resume)));
  links.push(...(await rubricLinks(resume)));
  links.push(...(await resumeDemoPairwise(resume)));
  return links;
}

/** A new demo: the stub endpoint and the clips over HTTP, then every part and the example rubrics; the seeding key is revoked after. */
async function seedNewDemo(
  prisma: PrismaClient,
  actor: Actor,
  projectId: string,
  options: SeedDemoOptions,
): Promise<DemoLink[]> {
  const { key } = await createApiKey(prisma, actor.userId, "demo seeding");
  // Over HTTP as a user's script would, one connection per request, retried when that is safe (seeding-client.ts).
  const api = seedingClient({ baseUrl: options.baseUrl, apiKey: key, log: options.log });
  const endpoint = await api(`/api/v1/projects/${projectId}/endpoints`, {
    json: {
      name: DEMO_STUB_ENDPOINT,
      baseUrl: options.stubBaseUrl,
      model: "stub-vision",
      apiKey: null,
      maxConcurrency: 8,
      imageDetail: "low",
    },
  });
  if (!options.clipsDir) return [];
  const uploadClip = clipUploader({
    api,
    clipsDir: options.clipsDir,
    log: options.log,
    failAfterClips: options.failAfterClips,
  });
  for (const clip of CLIPS) await uploadClip(projectId, clip);
  const context: DemoSeedContext = {
    prisma,
    actor,
    projectId,
    endpointId: String(endpoint.id),
    stubBaseUrl: options.stubBaseUrl,
    api,
    uploadClips: async (target, count, clipOptions) => {
      for (const clip of CLIPS.slice(0, count)) await uploadClip(target, clip, clipOptions);
    },
    log: options.log,
  };
  const links: DemoLink[] = [];
  for (const part of await demoParts()) links.push(...(await part.seed(context)));
  // Rubric tasks are a project's data, not a task folder: the example rubrics, each with a simulated run.
  links.push(...(await seedDemoRubrics(context)));
  // Pairwise comparison is a project's data too: a pair set, two simulated reviewers and a judge run in both orders.
  links.push(...(await seedDemoPairwise(context)));
  await prisma.apiKey.updateMany({
    where: { userId: actor.userId, name: "demo seeding" },
    data: { revokedAt: new Date() },
  });
  return links;
}

/**
 * The task folders' parts of the demo, in TASK_FOLDER_IDS order (loaded when the demo seeds, so each loads only then). A test
 * with a task of its own passes `[...TASK_KITS, itsKit]`.
 */
export async function demoParts(kits: readonly TaskKit[] = TASK_KITS) {
  return Promise.all(kits.flatMap((task) => (task.demoSeed ? [task.demoSeed()] : [])));
}
