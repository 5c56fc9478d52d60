import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../auth/actor";
import { prisma } from "../db/prisma";
import { NotFoundError } from "../errors";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { runName } from "../run-records/run-name";
import { createRubricTask } from "../rubrics/rubric-tasks";
import { builtInCatalogue, catalogFor } from "../task-modules/task-catalogue";
import { calibrationOptions, runOptionLabels } from "./calibration-options";
import { projectAccess } from "../authz/permissions";

/*
 * Issue 38 §5.9: the calibration pages' run pickers showed two identical labels for two runs with different
 * settings (same endpoint, same minute). Their labels now give the start to the second and what differs.
 */
let owner: Actor;
let stranger: Actor;
let projectId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  [owner, stranger] = await Promise.all([makeUser(), makeUser()]);
  projectId = (await createProject(prisma, owner, { name: "Pickers" })).id;
  const endpoint = await prisma.judgeEndpoint.create({
    data: {
      projectId,
      name: "Stub",
      baseUrl: "http://127.0.0.1:1/v1",
      model: "stub-vision",
      createdById: owner.userId,
    },
  });
  const version = await prisma.promptVersion.create({
    data: {
      projectId,
      templateId: "hallucination/inconsistency",
      text: "edited",
      hash: "0a1b2c3d4e5f60718293a4b5c6d7e8f9",
      createdById: owner.userId,
    },
  });
  const snapshot = { name: "Stub", model: "stub-vision", baseUrl: "http://127.0.0.1:1/v1", temperature: 0 };
  const make = async (key: string, second: number, settings: object, promptVersionIds: object = {}) => {
    ids[key] = (
      await prisma.judgeRun.create({
        data: {
          projectId,
          pipeline: "hallucination",
          endpointId: endpoint.id,
          createdById: owner.userId,
          status: "done",
          settings,
          endpointSnapshot: snapshot,
          promptVersionIds,
          createdAt: new Date(Date.UTC(2026, 10, 23, 14, 5, second)),
        },
      })
    ).id;
  };
  await make("mean", 7, { aggregation: "mean" });
  await make("max", 41, { aggregation: "max" });
  await make("edited", 50, { aggregation: "max" }, { "hallucination/inconsistency": version.id });
  const other = await prisma.judgeEndpoint.create({
    data: { projectId, name: "Captioner", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
  });
  ids.caption = (
    await prisma.judgeRun.create({
      data: {
        projectId,
        pipeline: "caption_style",
        endpointId: other.id,
        createdById: owner.userId,
        status: "done",
        settings: { captionModel: "x" },
      },
    })
  ).id;
});

describe("the calibration pages' run pickers", () => {
  it("label runs that runName names alike by the time to the second and the settings that differ among the task's runs", async () => {
    const { runs } = await calibrationOptions(prisma, await projectAccess(prisma, owner, projectId, "export.read"));
    const byId = new Map(runs.map((r) => [r.id, r]));
    const named = (key: string) =>
      runName(
        {
          pipeline: "hallucination",
          endpointName: byId.get(ids[key]!)!.endpoint,
          model: byId.get(ids[key]!)!.model,
          createdAt: byId.get(ids[key]!)!.createdAt,
        },
        builtInCatalogue(),
      );
    expect(named("mean")).toBe(named("max"));
    const labels = runOptionLabels(runs, builtInCatalogue());
    expect(labels.get(ids.mean!)).toBe(
      "Hallucination · stub-vision @ Stub · 23 Nov 2026 14:05:07 · aggregation mean, prompt hallucination/inconsistency shipped",
    );
    expect(labels.get(ids.max!)).toBe(
      "Hallucination · stub-vision @ Stub · 23 Nov 2026 14:05:41 · aggregation max, prompt hallucination/inconsistency shipped",
    );
    expect(labels.get(ids.edited!)).toBe(
      "Hallucination · stub-vision @ Stub · 23 Nov 2026 14:05:50 · aggregation max, prompt hallucination/inconsistency edited 0a1b2c3d",
    );
    // A run of another task is told apart by its task: the hallucination runs' settings are not its.
    expect(labels.get(ids.caption!)).not.toContain("aggregation");
    expect(new Set(labels.values()).size).toBe(4);
  });

  it("name a rubric task's run by the project's catalogue: the built-in tasks do not know its id", async () => {
    const rubricProject = (await createProject(prisma, owner, { name: "Rubric pickers" })).id;
    const endpoint = await prisma.judgeEndpoint.create({
      data: {
        projectId: rubricProject,
        name: "Stub",
        baseUrl: "http://127.0.0.1:1/v1",
        model: "m",
        createdById: owner.userId,
      },
    });
    const task = await createRubricTask(prisma, await projectAccess(prisma, owner, rubricProject, "rubrics.manage"), {
      definition: {
        name: "Glow check",
        frames: { mode: "key_frames" },
        prompt: "Rate the key frames. {{frames}}\n{{criteria}}",
        criteria: [
          { id: "glow", name: "Glow", definition: "How much it glows.", type: "numeric", min: 0, max: 4, step: 1 },
        ],
      },
    });
    const run = await prisma.judgeRun.create({
      data: {
        projectId: rubricProject,
        pipeline: task.pipeline,
        endpointId: endpoint.id,
        createdById: owner.userId,
        status: "done",
      },
    });
    const { runs } = await calibrationOptions(prisma, await projectAccess(prisma, owner, rubricProject, "export.read"));
    expect(runOptionLabels(runs, await catalogFor(prisma, rubricProject)).get(run.id)).toMatch(
      /^Glow check · m @ Stub · /,
    );
    expect(runOptionLabels(runs, builtInCatalogue()).get(run.id)).toMatch(new RegExp(`^${task.pipeline} · `));
  });

  it("are for members only", async () => {
    await expect(projectAccess(prisma, stranger, projectId, "export.read")).rejects.toBeInstanceOf(NotFoundError);
  });
});
