/**
 * Issue 25, issue 56: each project's catalogue holds the built-in tasks and its own rubric tasks, and no other
 * project's: a rubric task is offered, run and named only in its project; a new version is seen on the next call while
 * earlier runs keep theirs; archiving refuses new runs. The public OpenAPI document is built from the built-in
 * catalogue alone.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { errorResponse } from "../api/handler";
import { openApiDocument } from "../api/openapi/document";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { runFormPipelines } from "../judge/runs/run-form";
import { createRun } from "../judge/runs/runs";
import { startStubLlm, type StubServer } from "../../testkit/llm-stub/stub-server";
import { GENERATED_TASK_DECLARATIONS } from "../generated/tasks/declarations";
import { exampleLabelTargets } from "../label-sets/label-target-examples";
import { projectNavItems } from "../../testkit/testing/project-nav-items";
import { TASK_FOLDER_IDS } from "../tasks";
import { pipelineNames } from "../task-modules/task-display";
import { makeUser } from "../../testkit/testing/fixtures";
import { documentedRoutes } from "@/app/api/v1/documented-routes";
import { createStubEndpoint } from "../../testkit/testing/stub-endpoint";
import { inlineJudgeQueue, testJudgeDeps } from "../../testkit/testing/judge-deps";
import { projectWithFramedVideos } from "../../testkit/testing/judge-fixtures";
import { builtInCatalogue, catalogFor } from "../task-modules/task-catalogue";
import { videoListQuerySchema } from "../videos/video-filter";
import type { RubricDefinitionInput } from "./rubric-definition";
import { rubricTaskFile } from "./rubric-export";
import {
  createRubricTask,
  deleteRubricTask,
  getRubricTask,
  saveRubricVersion,
  setRubricTaskArchived,
} from "./rubric-tasks";
import { projectAccess } from "../authz/permissions";

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

/** A route's deps: the built-in pipelines given, a rubric task's read from the run's project's catalogue. */
const deps = () => ({ prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines });
const formIds = async (projectId: string) => runFormPipelines(await catalogFor(prisma, projectId), {}).map((p) => p.id);

describe("rubric tasks in their project's catalogue", () => {
  it("offers a project's rubric task in that project's run form only, and refuses it in another project's run", async () => {
    const inA = await createRubricTask(prisma, await projectAccess(prisma, owner, a.projectId, "rubrics.manage"), {
      definition: definition("Glow A"),
    });
    const inB = await createRubricTask(prisma, await projectAccess(prisma, owner, b.projectId, "rubrics.manage"), {
      definition: definition("Glow B"),
    });
    expect(await formIds(a.projectId)).toContain(inA.pipeline);
    expect(await formIds(a.projectId)).not.toContain(inB.pipeline);
    expect(runFormPipelines(await catalogFor(prisma, a.projectId), {}).find((p) => p.id === inA.pipeline)?.label).toBe(
      "Glow A (rubric task)",
    );
    await expect(
      createRun(deps(), await projectAccess(prisma, owner, a.projectId, "runs.manage"), {
        pipeline: inB.pipeline,
        endpointId: endpointA,
      }),
    ).rejects.toThrow(`Unknown pipeline ${inB.pipeline}.`);
  });

  it("finds no rubric task of another project through an access to this one, to read, export, save or delete", async () => {
    const inB = await createRubricTask(prisma, await projectAccess(prisma, owner, b.projectId, "rubrics.manage"), {
      definition: definition("Only in B"),
    });
    const manageA = await projectAccess(prisma, owner, a.projectId, "rubrics.manage");
    await expect(getRubricTask(prisma, manageA, inB.id)).rejects.toThrow("No such rubric task.");
    await expect(rubricTaskFile(prisma, manageA, inB.id)).rejects.toThrow("No such rubric task.");
    await expect(saveRubricVersion(prisma, manageA, inB.id, { definition: definition("Moved") })).rejects.toThrow(
      "No such rubric task.",
    );
    await expect(setRubricTaskArchived(prisma, manageA, inB.id, true)).rejects.toThrow("No such rubric task.");
    await expect(deleteRubricTask(prisma, manageA, inB.id)).rejects.toThrow("No such rubric task.");
    const ofB = await getRubricTask(prisma, await projectAccess(prisma, owner, b.projectId, "project.view"), inB.id);
    expect(ofB).toMatchObject({ name: "Only in B", archived: false });
  });

  it("lists a project's rubric tasks on its own pages only: task lists, pipeline names, label examples, nav", async () => {
    const inA = await createRubricTask(prisma, await projectAccess(prisma, owner, a.projectId, "rubrics.manage"), {
      definition: definition("Listed A", "listed_a"),
    });
    const inB = await createRubricTask(prisma, await projectAccess(prisma, owner, b.projectId, "rubrics.manage"), {
      definition: definition("Listed B", "listed_b"),
    });
    const ofA = await catalogFor(prisma, a.projectId);
    const ofB = await catalogFor(prisma, b.projectId);
    const ids = (catalogue: typeof ofA) => catalogue.tasks.map((t) => t.id);
    expect(ids(ofA)).toContain(inA.pipeline);
    expect(ids(ofA)).not.toContain(inB.pipeline);
    expect(ids(ofB)).toContain(inB.pipeline);
    // The built-in tasks belong to every project.
    expect(ids(ofA)).toEqual(
      expect.arrayContaining(
        TASK_FOLDER_IDS.flatMap((id) => GENERATED_TASK_DECLARATIONS.find((f) => f.id === id)!.tasks.map((t) => t.id)),
      ),
    );
    expect(pipelineNames(ofA)).toContain("Listed A");
    expect(pipelineNames(ofA)).not.toContain("Listed B");
    expect(exampleLabelTargets(ofA.tasks).join(" ")).not.toMatch(/listed_b/);
    expect(exampleLabelTargets(ofB.tasks).join(" ")).toMatch(/listed_b/);
    expect(projectNavItems(a.projectId, "owner", ofA)).toEqual(
      projectNavItems(b.projectId, "owner", ofB).map((item) => ({
        ...item,
        href: item.href.replace(b.projectId, a.projectId),
      })),
    );
  });

  it("keeps every project's rubric ids out of the public OpenAPI document and out of another project's 400s", async () => {
    const task = await createRubricTask(prisma, await projectAccess(prisma, owner, b.projectId, "rubrics.manage"), {
      definition: definition("Secret B", "secret_glow"),
    });
    const ofB = await catalogFor(prisma, b.projectId);
    const ofA = await catalogFor(prisma, a.projectId);
    const metricId = ofB.findTask(task.pipeline)!.metrics[0]!.id;
    expect(ofA.allMetrics().map((m) => m.id)).not.toContain(metricId);
    // The project's own sort schema takes the metric (its list sorts by it); another project's does not know it…
    expect(videoListQuerySchema(ofB).safeParse({ sort: metricId }).success).toBe(true);
    expect(videoListQuerySchema(ofA).safeParse({ sort: metricId }).success).toBe(false);
    // …and a bad sort's message there does not list it.
    const parsed = videoListQuerySchema(ofA).safeParse({ sort: "no_such_sort" });
    expect(parsed.success).toBe(false);
    const body = (await errorResponse(parsed.error).json()) as { error: { message: string } };
    expect(body.error.message).toContain("expected one of");
    expect(body.error.message).not.toContain(metricId);
    // A list of its own, so the document is built now, with the rubric task saved.
    expect(JSON.stringify(openApiDocument([...documentedRoutes]))).not.toMatch(/rubric_\d+|r\d+_secret_glow/);
    // The project's catalogue still has it after the document is built.
    expect((await catalogFor(prisma, b.projectId)).findTask(task.pipeline)).not.toBeNull();
  });

  it("keeps a task saved while an older read was under way: the older read, finishing last, does not hide it", async () => {
    // An older call reads the project's rubric tasks, then waits (here: until released). Meanwhile a save commits and
    // a later call reads the catalogue. The database is the real one; only the older read's timing is held.
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
    const olderRead = catalogFor(slowPrisma, a.projectId);
    await new Promise((resolve) => setTimeout(resolve, 200)); // its rows are read before the save
    const saved = await createRubricTask(prisma, await projectAccess(prisma, owner, a.projectId, "rubrics.manage"), {
      definition: definition("Raced", "raced"),
    });
    expect((await catalogFor(prisma, a.projectId)).findTask(saved.pipeline)).not.toBeNull();
    release();
    await olderRead;
    expect((await catalogFor(prisma, a.projectId)).findTask(saved.pipeline)).not.toBeNull();
    expect(await formIds(a.projectId)).toContain(saved.pipeline);
  });

  it("shows a task saved through one copy of the module in another copy of the same process at once", async () => {
    // Next.js bundles route handlers and pages apart: one process holds two copies of these modules. Here the second
    // copy is a fresh import of the modules (its own cache, its own run form), whose entry (a page helper, a route
    // wrapper) builds that copy's application context first.
    await catalogFor(prisma, a.projectId);
    vi.resetModules();
    (await import("../app-context/app-context")).appContext();
    const pagesCatalogue = await import("../task-modules/task-catalogue");
    const pagesRunForm = await import("../judge/runs/run-form");
    await pagesCatalogue.catalogFor(prisma, a.projectId);
    expect(pagesCatalogue.catalogFor).not.toBe(catalogFor);
    // The API's copy saves; the page renders at once, and its copy reads the new task on its next call.
    const saved = await createRubricTask(prisma, await projectAccess(prisma, owner, a.projectId, "rubrics.manage"), {
      definition: definition("Saved by the API", "api"),
    });
    const page = await pagesCatalogue.catalogFor(prisma, a.projectId);
    expect(page.findTask(saved.pipeline)).not.toBeNull();
    expect(pagesRunForm.runFormPipelines(page, {}).map((p) => p.id)).toContain(saved.pipeline);
    // Unchanged since: the copy answers the same value, reading the versions only (one query), not the definitions.
    const reads = vi.spyOn(prisma.rubricTask, "findMany");
    expect(await pagesCatalogue.catalogFor(prisma, a.projectId)).toBe(page);
    expect(reads).toHaveBeenCalledTimes(1);
    reads.mockRestore();
  });

  it("sees a saved version on the next call; a run started before keeps the version it pinned", async () => {
    const task = await createRubricTask(prisma, await projectAccess(prisma, owner, a.projectId, "rubrics.manage"), {
      definition: definition("Versioned"),
    });
    const first = await createRun(deps(), await projectAccess(prisma, owner, a.projectId, "runs.manage"), {
      pipeline: task.pipeline,
      endpointId: endpointA,
    });
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
    expect(
      await saveRubricVersion(prisma, await projectAccess(prisma, owner, a.projectId, "rubrics.manage"), task.id, {
        definition: changed,
      }),
    ).toMatchObject({
      version: 2,
      created: true,
    });
    expect(
      await saveRubricVersion(prisma, await projectAccess(prisma, owner, a.projectId, "rubrics.manage"), task.id, {
        definition: changed,
      }),
    ).toMatchObject({
      version: 2,
      created: false,
    });
    const target = (await catalogFor(prisma, a.projectId)).findTask(task.pipeline)!.targets[0]!;
    expect(target.scale).toEqual({ kind: "numeric", min: 0, max: 10, step: 1 });
    const second = await createRun(deps(), await projectAccess(prisma, owner, a.projectId, "runs.manage"), {
      pipeline: task.pipeline,
      endpointId: endpointA,
    });
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
    const task = await createRubricTask(prisma, await projectAccess(prisma, owner, a.projectId, "rubrics.manage"), {
      definition: definition("Archived one"),
    });
    await setRubricTaskArchived(
      prisma,
      await projectAccess(prisma, owner, a.projectId, "rubrics.manage"),
      task.id,
      true,
    );
    expect(await formIds(a.projectId)).not.toContain(task.pipeline);
    await expect(
      createRun(deps(), await projectAccess(prisma, owner, a.projectId, "runs.manage"), {
        pipeline: task.pipeline,
        endpointId: endpointA,
      }),
    ).rejects.toThrow(/Archived one.*archived/);
    await setRubricTaskArchived(
      prisma,
      await projectAccess(prisma, owner, a.projectId, "rubrics.manage"),
      task.id,
      false,
    );
    await expect(
      createRun(deps(), await projectAccess(prisma, owner, a.projectId, "runs.manage"), {
        pipeline: task.pipeline,
        endpointId: endpointA,
      }),
    ).resolves.toMatchObject({ id: expect.any(String) });
  });
});
