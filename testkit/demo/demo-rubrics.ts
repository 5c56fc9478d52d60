/**
 * The rubric tasks' part of `npm run demo` (testkit/demo/seed-demo-project.ts): the three example rubrics of
 * lib/rubrics/examples, created as the demo project's rubric tasks, and a simulated run of each queued through
 * the running app's API (its workers judge them with the stub, as they do the other demo runs).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { DemoLink, DemoResumeContext, DemoSeedContext } from "./demo-part";
import { rubricPipelineId } from "../../lib/rubrics/rubric-declaration";
import { createRubricTask } from "../../lib/rubrics/rubric-tasks";
import { projectAccess } from "@/lib/authz/permissions";

/** The example rubric files shipped in the repository, by file name. */
export function exampleRubricFiles(): { fileName: string; text: string }[] {
  const dir = fileURLToPath(new URL("../../lib/rubrics/examples/", import.meta.url));
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".yaml"))
    .sort()
    .map((fileName) => ({ fileName, text: fs.readFileSync(path.join(dir, fileName), "utf8") }));
}

/**
 * How long the app may take to see a rubric task this process created: each app process reloads the rubric
 * tasks at most a second after the last time (lib/rubrics/rubric-registry.ts), and a run of a task it has not
 * loaded yet is refused as an unknown pipeline.
 */
const APP_REGISTRY_AGE_MS = 1100;

export async function seedDemoRubrics(
  context: Pick<DemoSeedContext, "prisma" | "actor" | "projectId" | "endpointId" | "api" | "log"> & {
    registryAgeMs?: number;
  },
): Promise<DemoLink[]> {
  const { prisma, actor, projectId, endpointId, api, log } = context;
  const created = [];
  for (const file of exampleRubricFiles()) {
    const task = await createRubricTask(prisma, await projectAccess(prisma, actor, projectId, "rubrics.manage"), {
      file: file.text,
    });
    log(`created the rubric task "${task.name}" from ${file.fileName}`);
    created.push(task);
  }
  await new Promise((resolve) => setTimeout(resolve, context.registryAgeMs ?? APP_REGISTRY_AGE_MS));
  for (const task of created) {
    const run = await api(`/api/v1/projects/${projectId}/runs`, { json: { pipeline: task.pipeline, endpointId } });
    log(`started a simulated run ${String(run.id)} of the rubric task "${task.name}"`);
  }
  return rubricLinks(context);
}

/** The video list of the demo's first rubric run (prompt adherence, one score per clip). */
export async function rubricLinks({
  prisma,
  projectId,
}: Pick<DemoResumeContext, "prisma" | "projectId">): Promise<DemoLink[]> {
  const tasks = await prisma.rubricTask.findMany({
    where: { projectId },
    select: { key: true, name: true },
    orderBy: { key: "asc" },
  });
  const runs = await prisma.judgeRun.findMany({
    where: { projectId, pipeline: { in: tasks.map((t) => rubricPipelineId(t.key)) } },
    orderBy: { createdAt: "asc" },
    select: { id: true, pipeline: true },
  });
  const adherence = tasks.find((t) => t.name === "Prompt adherence");
  const run = runs.find((r) => adherence && r.pipeline === rubricPipelineId(adherence.key)) ?? runs[0];
  return run
    ? [
        {
          label: "a rubric task's run (example rubrics, simulated)",
          path: `/projects/${projectId}/videos?runId=${run.id}`,
        },
      ]
    : [];
}
