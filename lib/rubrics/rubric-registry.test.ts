/**
 * Issue 25: rubric tasks live in one process-wide registry, yet each stays its project's: offered, run and
 * named only there; a new version replaces the registered one while earlier runs keep theirs; archiving
 * refuses new runs.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorResponse } from "../api/handler";
import { openApiDocument } from "../api/openapi/document";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { runFormPipelines } from "../judge/run-form";
import { createRun } from "../judge/runs";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { installedPipelines } from "../task-modules/installed-task-modules";
import { GENERATED_TASK_DECLARATIONS } from "../generated/tasks/declarations";
import { exampleLabelTargets } from "../label-sets/label-target-examples";
import { projectNavItems } from "../projects/project-nav";
import { TASK_IDS } from "../tasks";
import { findTask, projectTasks } from "../tasks/registry";
import { pipelineNames } from "../tasks/task-display";
import { makeUser } from "../testing/fixtures";
import { documentedRoutes } from "@/app/api/v1/documented-routes";
import { createStubEndpoint } from "../testing/stub-endpoint";
import { inlineJudgeQueue, testJudgeDeps } from "../testing/judge-deps";
import { projectWithFramedVideos } from "../testing/judge-fixtures";
import { videoListQuerySchema } from "../videos/video-filter";
import type { RubricDefinitionInput } from "./rubric-definition";
import { ensureRubricTasks, isRubricTaskId } from "./rubric-registry";
import { createRubricTask, saveRubricVersion, setRubricTaskArchived } from "./rubric-tasks";

const definition = (name: string, criterion = "glow"): RubricDefinitionInput => ({
  name,
  frames: { mode: "key_frames" },
  prompt: "Rate the key frames. {{frames}}\n{{criteria}}",
  criteria: [
    { id: criterion, name: "Glow", definition: "How much it glows.", type: "numeric", min: 0, max: 4, step: 1 },
  ],
});

let stub: StubServer;
let owner: Actor;
let a: { projectId: string; videoIds: string[] };
let b: { projectId: string; videoIds: string[] };
let endpointA: string;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  a = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 2, name: "Rubric A" });
  b = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 2, name: "Rubric B" });
  endpointA = (await createStubEndpoint(prisma, owner, a.projectId, stub.baseURL)).id;
});
afterAll(async () => stub?.close());

const deps = () => ({ prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: installedPipelines() });

describe("rubric tasks in the registry", () => {
  it("offers a project's rubric task in that project's run form only, and refuses it in another project's run", async () => {
    const inA = await createRubricTask(prisma, owner, a.projectId, { definition: definition("Glow A") });
    const inB = await createRubricTask(prisma, owner, b.projectId, { definition: definition("Glow B") });
    expect(runFormPipelines({}, a.projectId).map((p) => p.id)).toContain(inA.pipeline);
    expect(runFormPipelines({}, a.projectId).map((p) => p.id)).not.toContain(inB.pipeline);
    expect(runFormPipelines({}, a.projectId).find((p) => p.id === inA.pipeline)?.label).toBe("Glow A (rubric task)");
    await expect(
      createRun(deps(), owner, a.projectId, { pipeline: inB.pipeline, endpointId: endpointA }),
    ).rejects.toThrow(`Unknown pipeline ${inB.pipeline}.`);
  });

  it("lists a project's rubric tasks on its own pages only: task lists, pipeline names, label examples, nav", async () => {
    const inA = await createRubricTask(prisma, owner, a.projectId, { definition: definition("Listed A", "listed_a") });
    const inB = await createRubricTask(prisma, owner, b.projectId, { definition: definition("Listed B", "listed_b") });
    const ids = (projectId: string) => projectTasks(projectId).map((t) => t.id);
    expect(ids(a.projectId)).toContain(inA.pipeline);
    expect(ids(a.projectId)).not.toContain(inB.pipeline);
    expect(ids(b.projectId)).toContain(inB.pipeline);
    // The built-in tasks belong to every project.
    expect(ids(a.projectId)).toEqual(
      expect.arrayContaining(
        TASK_IDS.flatMap((id) => GENERATED_TASK_DECLARATIONS.find((f) => f.id === id)!.tasks.map((t) => t.id)),
      ),
    );
    expect(pipelineNames(a.projectId)).toContain("Listed A");
    expect(pipelineNames(a.projectId)).not.toContain("Listed B");
    expect(exampleLabelTargets(projectTasks(a.projectId)).join(" ")).not.toMatch(/listed_b/);
    expect(exampleLabelTargets(projectTasks(b.projectId)).join(" ")).toMatch(/listed_b/);
    expect(projectNavItems(a.projectId, "owner")).toEqual(
      projectNavItems(b.projectId, "owner").map((item) => ({
        ...item,
        href: item.href.replace(b.projectId, a.projectId),
      })),
    );
  });

  it("keeps every project's rubric ids out of the public OpenAPI document and out of 400s' option lists", async () => {
    const task = await createRubricTask(prisma, owner, b.projectId, {
      definition: definition("Secret B", "secret_glow"),
    });
    const metricId = findTask(task.pipeline)!.metrics[0]!.id;
    expect(isRubricTaskId(metricId)).toBe(true);
    // The sort schema itself takes the metric (a project's own list sorts by it)…
    expect(videoListQuerySchema().safeParse({ sort: metricId }).success).toBe(true);
    // …but a bad sort's message does not list it.
    const parsed = videoListQuerySchema().safeParse({ sort: "no_such_sort" });
    expect(parsed.success).toBe(false);
    const body = (await errorResponse(parsed.error).json()) as { error: { message: string } };
    expect(body.error.message).toContain("expected one of");
    expect(body.error.message).not.toContain(metricId);
    // A list of its own, so the document is built now, with the rubric task registered.
    expect(JSON.stringify(openApiDocument([...documentedRoutes]))).not.toMatch(/rubric_\d+|r\d+_secret_glow/);
    // The registry is whole again after the document is built.
    expect(findTask(task.pipeline)).not.toBeNull();
  });

  it("keeps a task saved while an older refresh was reading: the older rows, arriving last, do not unregister it", async () => {
    // A page's refresh reads the rubric tasks, then waits (here: until released) before registering them. Meanwhile a
    // save commits and forces its own refresh, which finishes first. The database is the real one; only the
    // older refresh's timing is held.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slowRubricTasks = new Proxy(prisma.rubricTask, {
      get: (target, property) =>
        property === "findMany"
          ? async (...args: Parameters<typeof prisma.rubricTask.findMany>) => {
              const rows = await target.findMany(...args);
              await held;
              return rows;
            }
          : Reflect.get(target, property),
    });
    const slowPrisma = new Proxy(prisma, {
      get: (target, property) => (property === "rubricTask" ? slowRubricTasks : Reflect.get(target, property)),
    });
    const olderRefresh = ensureRubricTasks(slowPrisma, { force: true });
    await new Promise((resolve) => setTimeout(resolve, 200)); // its rows are read before the save
    const saved = await createRubricTask(prisma, owner, a.projectId, { definition: definition("Raced", "raced") });
    expect(isRubricTaskId(saved.pipeline)).toBe(true);
    release();
    await olderRefresh;
    expect(isRubricTaskId(saved.pipeline)).toBe(true);
    expect(runFormPipelines({}, a.projectId).map((p) => p.id)).toContain(saved.pipeline);
  });

  it("shows a task saved through one copy of the registry in another copy of the same process at once", async () => {
    // Next.js bundles route handlers and pages apart: one process holds two copies of these modules, each with its
    // own registry. Here the second copy is a fresh import of the modules (its own registry, its own run form).
    await ensureRubricTasks(prisma);
    vi.resetModules();
    const pagesRegistry = await import("./rubric-registry");
    const pagesRunForm = await import("../judge/run-form");
    await pagesRegistry.ensureRubricTasks(prisma);
    expect(pagesRegistry.isRubricTaskId).not.toBe(isRubricTaskId);
    // The API's copy saves (and refreshes itself); the page renders at once, well within the second a copy may be stale.
    const saved = await createRubricTask(prisma, owner, a.projectId, {
      definition: definition("Saved by the API", "api"),
    });
    await pagesRegistry.ensureRubricTasks(prisma);
    expect(pagesRegistry.isRubricTaskId(saved.pipeline)).toBe(true);
    expect(pagesRunForm.runFormPipelines({}, a.projectId).map((p) => p.id)).toContain(saved.pipeline);
    // Unchanged since: the copy answers from what it holds, without a load.
    const reads = vi.spyOn(prisma.rubricTask, "findMany");
    await pagesRegistry.ensureRubricTasks(prisma);
    expect(reads).not.toHaveBeenCalled();
    reads.mockRestore();
  });

  it("registers a saved version at once; a run started before keeps the version it pinned", async () => {
    const task = await createRubricTask(prisma, owner, a.projectId, { definition: definition("Versioned") });
    const first = await createRun(deps(), owner, a.projectId, { pipeline: task.pipeline, endpointId: endpointA });
    const changed = {
      ...definition("Versioned"),
      criteria: [
        {
          id: "glow",
          name: "Glow",
          definition: "How much it glows.",
          type: "numeric" as const,
          min: 0,
          max: 10,
          step: 1,
        },
      ],
    };
    expect(await saveRubricVersion(prisma, owner, task.id, { definition: changed })).toMatchObject({
      version: 2,
      created: true,
    });
    expect(await saveRubricVersion(prisma, owner, task.id, { definition: changed })).toMatchObject({
      version: 2,
      created: false,
    });
    const target = findTask(task.pipeline)!.targets[0]!;
    expect(target.scale).toEqual({ kind: "numeric", min: 0, max: 10, step: 1 });
    const second = await createRun(deps(), owner, a.projectId, { pipeline: task.pipeline, endpointId: endpointA });
    const settings = await prisma.judgeRun.findMany({
      where: { id: { in: [first.id, second.id] } },
      select: { id: true, settings: true },
    });
    const versionOf = (id: string) =>
      settings.find((s) => s.id === id)!.settings as { version: number; definition: { criteria: { max: number }[] } };
    expect([versionOf(first.id).version, versionOf(first.id).definition.criteria[0]!.max]).toEqual([1, 4]);
    expect([versionOf(second.id).version, versionOf(second.id).definition.criteria[0]!.max]).toEqual([2, 10]);
    // Each run's scores are on the scale of the version it pinned.
    const scores = await prisma.score.findMany({ where: { runId: first.id } });
    expect(scores.length).toBeGreaterThan(0);
    expect(scores.every((s) => s.value <= 4)).toBe(true);
  });

  it("refuses new runs of an archived rubric task, naming it, and takes them again once restored", async () => {
    const task = await createRubricTask(prisma, owner, a.projectId, { definition: definition("Archived one") });
    await setRubricTaskArchived(prisma, owner, task.id, true);
    expect(runFormPipelines({}, a.projectId).map((p) => p.id)).not.toContain(task.pipeline);
    await expect(
      createRun(deps(), owner, a.projectId, { pipeline: task.pipeline, endpointId: endpointA }),
    ).rejects.toThrow(/Archived one.*archived/);
    await setRubricTaskArchived(prisma, owner, task.id, false);
    await expect(
      createRun(deps(), owner, a.projectId, { pipeline: task.pipeline, endpointId: endpointA }),
    ).resolves.toMatchObject({ id: expect.any(String) });
  });
});
