/**
 * Issue 25: the rubric task API on a real PostgreSQL. Create, list, read, save a version (the same definition
 * again saves nothing; a run keeps the version it started with), archive and restore (an archived task starts no
 * run), delete (409 with runs, 404 for a non-member, 403 for a reviewer), export and re-import (the same hash),
 * and each bad definition of the issue refused with a 400 naming its field and nothing saved.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createEndpoint } from "@/lib/judge/endpoints/endpoints";
import { createRun } from "@/lib/judge/runs/runs";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";

import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import {
  GET as getTaskRoute,
  PUT as putTaskRoute,
  PATCH as patchTaskRoute,
  DELETE as deleteTaskRoute,
} from "./[rubricTaskId]/route";
import { GET as exportRoute } from "./[rubricTaskId]/export/route";
import { GET as listRoute, POST as createRoute } from "../projects/[projectId]/rubric-tasks/route";
import { POST as createRunRoute } from "../projects/[projectId]/runs/route";
import { builtInCatalogue } from "@/lib/task-modules/task-catalogue";
import { projectAccess } from "@/lib/authz/permissions";

let stub: StubServer;
let owner: Actor;
let ownerKey: string;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
  ownerKey = (await createApiKey(prisma, owner.userId, "rubric api")).key;
});
afterAll(async () => stub?.close());

function motionRubric(overrides: Record<string, unknown> = {}) {
  return {
    name: "Motion",
    guidelines: "Be strict about jitter.",
    frames: { mode: "key_frames" },
    criteria: [
      {
        id: "smooth",
        name: "Smoothness",
        definition: "How smooth the motion is.",
        type: "numeric",
        min: 1,
        max: 5,
        step: 1,
      },
      {
        id: "style",
        name: "Style",
        definition: "The look of the video.",
        type: "categorical",
        labels: [{ label: "photo" }, { label: "cartoon" }],
      },
      { id: "text_ok", name: "Clean text", definition: "No garbled on-screen text.", type: "boolean" },
    ],
    prompt: 'Judge this video made from "{{prompt}}". The images are {{frames}}\n\n{{guidelines}}\n\n{{criteria}}',
    ...overrides,
  };
}

type Json = Record<string, unknown>;

const create = (key: string, projectId: string, body: unknown) =>
  createRoute(
    apiRequest(`/api/v1/projects/${projectId}/rubric-tasks`, key, { method: "POST", body: JSON.stringify(body) }),
    routeContext({ projectId }),
  );
const list = (key: string, projectId: string) =>
  listRoute(apiRequest(`/api/v1/projects/${projectId}/rubric-tasks`, key), routeContext({ projectId }));
const read = (key: string, rubricTaskId: string) =>
  getTaskRoute(apiRequest(`/api/v1/rubric-tasks/${rubricTaskId}`, key), routeContext({ rubricTaskId }));
const save = (key: string, rubricTaskId: string, body: unknown) =>
  putTaskRoute(
    apiRequest(`/api/v1/rubric-tasks/${rubricTaskId}`, key, { method: "PUT", body: JSON.stringify(body) }),
    routeContext({ rubricTaskId }),
  );
const archive = (key: string, rubricTaskId: string, archived: boolean) =>
  patchTaskRoute(
    apiRequest(`/api/v1/rubric-tasks/${rubricTaskId}`, key, { method: "PATCH", body: JSON.stringify({ archived }) }),
    routeContext({ rubricTaskId }),
  );
const remove = (key: string, rubricTaskId: string) =>
  deleteTaskRoute(
    apiRequest(`/api/v1/rubric-tasks/${rubricTaskId}`, key, { method: "DELETE" }),
    routeContext({ rubricTaskId }),
  );
const exportFile = (key: string, rubricTaskId: string, query = "") =>
  exportRoute(apiRequest(`/api/v1/rubric-tasks/${rubricTaskId}/export${query}`, key), routeContext({ rubricTaskId }));

async function createdTask(projectId: string, body: unknown = { definition: motionRubric() }) {
  const response = await create(ownerKey, projectId, body);
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; key: number; pipeline: string; version: number };
}

async function stubEndpoint(projectId: string) {
  return createEndpoint(prisma, await projectAccess(prisma, owner, projectId, "endpoints.manage"), {
    name: "stub",
    baseUrl: stub.baseURL,
    model: "stub-vision",
    apiKey: null,
    imageDetail: "low",
    temperature: 0,
    maxConcurrency: 4,
    requestsPerMinute: null,
    timeoutSeconds: 60,
    structuredOutput: true,
    pricePer1kInput: null,
    pricePer1kOutput: null,
  });
}

const runOf = async (projectId: string, pipeline: string, endpointId: string) =>
  createRun(
    { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    {
      pipeline,
      endpointId,
    },
  );

async function memberKey(projectId: string, role: "reviewer" | "viewer") {
  const member = await makeUser();
  await prisma.projectMember.create({ data: { projectId, userId: member.userId, role } });
  return (await createApiKey(prisma, member.userId, role)).key;
}

const rowCounts = async (projectId: string) => ({
  tasks: await prisma.rubricTask.count({ where: { projectId } }),
  versions: await prisma.rubricVersion.count({ where: { rubricTask: { projectId } } }),
});

describe("rubric tasks: create, list, read", () => {
  it("creates from a definition (201, version 1), lists it with its latest version, and reads it with its versions", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 2,
      name: "Rubric API create",
    });
    const created = await createdTask(projectId);
    expect(created).toMatchObject({ version: 1, pipeline: `rubric_${created.key}` });

    const listed = (await (await list(ownerKey, projectId)).json()) as { rubricTasks: Json[] };
    expect(listed.rubricTasks).toHaveLength(1);
    expect(listed.rubricTasks[0]).toMatchObject({
      id: created.id,
      name: "Motion",
      version: 1,
      archived: false,
      runs: 0,
    });

    const viewerRead = await read(await memberKey(projectId, "viewer"), created.id);
    expect(viewerRead.status).toBe(200);
    const task = (await viewerRead.json()) as { versions: { number: number; hash: string; definition: Json }[] };
    expect(task.versions.map((v) => v.number)).toEqual([1]);
    expect(task.versions[0]!.definition).toMatchObject({ name: "Motion", frames: { mode: "key_frames" } });
    expect(task.versions[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("creates from a YAML file's text", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 2,
      name: "Rubric API yaml",
    });
    const file = [
      "name: Flicker",
      "frames: {mode: each_key_frame}",
      "criteria:",
      "  - {id: flicker, name: Flicker, definition: Brightness jumps between frames., type: boolean}",
      'prompt: "The image is {{frames}} {{criteria}}"',
    ].join("\n");
    const created = await createdTask(projectId, { file });
    const task = (await (await read(ownerKey, created.id)).json()) as {
      name: string;
      versions: { definition: { frames: { mode: string } } }[];
    };
    expect(task.name).toBe("Flicker");
    expect(task.versions[0]!.definition.frames.mode).toBe("each_key_frame");
  });
});

describe("rubric tasks: bad definitions get a 400 naming the field, and nothing is saved", () => {
  const smooth = motionRubric().criteria[0]!;
  const style = motionRubric().criteria[1]!;
  const textOk = motionRubric().criteria[2]!;
  const cases: [string, Json, string, RegExp][] = [
    [
      "an unknown variable",
      motionRubric({ prompt: "Judge {{promt}} from {{frames}}" }),
      "prompt",
      /unknown variable \{\{promt\}\}/,
    ],
    [
      "min ≥ max",
      motionRubric({ criteria: [{ ...smooth, min: 5, max: 5 }, style, textOk] }),
      "criteria.0.max",
      /max \(5\) must be greater than min \(5\)/,
    ],
    [
      "duplicate criterion ids",
      motionRubric({ criteria: [smooth, { ...style, id: "smooth" }, textOk] }),
      "criteria.1.id",
      /"smooth" is used twice/,
    ],
    [
      "an empty label list",
      motionRubric({ criteria: [smooth, { ...style, labels: [] }, textOk] }),
      "criteria.1.labels",
      /the label list is empty/,
    ],
    [
      "a presence rule on a non-numeric criterion",
      motionRubric({ criteria: [smooth, style, { ...textOk, presence: { threshold: 1, absentValue: 0 } }] }),
      "criteria.2.presence",
      /needs a numeric criterion/,
    ],
  ];

  it.each(cases)("%s", async (_name, definition, path, message) => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 1,
      name: `Rubric API bad ${path}`,
    });
    const response = await create(ownerKey, projectId, { definition });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as {
      error: { code: string; message: string; details: { problems: { path: string; message: string }[] } };
    };
    expect(error.code).toBe("invalid_rubric");
    const problem = error.details.problems.find((p) => p.path === path);
    expect(problem, JSON.stringify(error.details.problems)).toBeDefined();
    expect(problem!.message).toMatch(message);
    expect(error.message).toContain(path);
    expect(await rowCounts(projectId)).toEqual({ tasks: 0, versions: 0 });
  });

  it("refuses a bad new version the same way and keeps the task at its version", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 1,
      name: "Rubric API bad version",
    });
    const created = await createdTask(projectId);
    const response = await save(ownerKey, created.id, { definition: cases[1]![1] });
    expect(response.status).toBe(400);
    expect(
      ((await response.json()) as { error: { details: { problems: { path: string }[] } } }).error.details.problems.map(
        (p) => p.path,
      ),
    ).toContain("criteria.0.max");
    expect(await rowCounts(projectId)).toEqual({ tasks: 1, versions: 1 });
  });
});

describe("rubric tasks: versions, archive, delete", () => {
  it("saves no version for the same definition, version 2 for a changed one, and a run started before keeps version 1", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 2,
      name: "Rubric API versions",
    });
    const created = await createdTask(projectId);
    const endpoint = await stubEndpoint(projectId);
    const before = await runOf(projectId, created.pipeline, endpoint.id);

    // The same definition, keys in another order, is not a new version.
    const same = await save(ownerKey, created.id, {
      definition: Object.fromEntries(Object.entries(motionRubric()).reverse()),
    });
    expect(same.status).toBe(200);
    expect(await same.json()).toMatchObject({ version: 1, created: false });

    const changed = motionRubric({ guidelines: "Be lenient about jitter." });
    const second = await save(ownerKey, created.id, { definition: changed });
    expect(second.status).toBe(201);
    expect(await second.json()).toMatchObject({ version: 2, created: true });
    const task = (await (await read(ownerKey, created.id)).json()) as { versions: { number: number; id: string }[] };
    expect(task.versions.map((v) => v.number)).toEqual([2, 1]);

    const run = await prisma.judgeRun.findUniqueOrThrow({ where: { id: before.id }, select: { settings: true } });
    const settings = run.settings as { version: number; rubricVersionId: string; definition: { guidelines: string } };
    expect(settings.version).toBe(1);
    expect(settings.rubricVersionId).toBe(task.versions[1]!.id);
    expect(settings.definition.guidelines).toBe("Be strict about jitter.");

    // A run started now pins version 2.
    const after = await runOf(projectId, created.pipeline, endpoint.id);
    const afterSettings = (
      await prisma.judgeRun.findUniqueOrThrow({ where: { id: after.id }, select: { settings: true } })
    ).settings as { version: number };
    expect(afterSettings.version).toBe(2);
  });

  it("archives a task (a run is refused with a clear message) and restores it (runs start again)", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 2,
      name: "Rubric API archive",
    });
    const created = await createdTask(projectId);
    const endpoint = await stubEndpoint(projectId);

    const archived = await archive(ownerKey, created.id, true);
    expect(archived.status).toBe(200);
    expect(await archived.json()).toEqual({ id: created.id, archived: true });
    const listed = (await (await list(ownerKey, projectId)).json()) as { rubricTasks: { archived: boolean }[] };
    expect(listed.rubricTasks[0]!.archived).toBe(true);

    const refused = await createRunRoute(
      apiRequest(`/api/v1/projects/${projectId}/runs`, ownerKey, {
        method: "POST",
        body: JSON.stringify({ pipeline: created.pipeline, endpointId: endpoint.id }),
      }),
      routeContext({ projectId }),
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /The rubric task "Motion" is archived: restore it/,
    );
    expect(await prisma.judgeRun.count({ where: { projectId } })).toBe(0);

    expect(await (await archive(ownerKey, created.id, false)).json()).toEqual({ id: created.id, archived: false });
    const run = await runOf(projectId, created.pipeline, endpoint.id);
    expect(run.videos).toBe(1);
  });

  it("deletes a task without runs (204); one with runs is a 409 and stays", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 2,
      name: "Rubric API delete",
    });
    const unused = await createdTask(projectId, { definition: motionRubric({ name: "Unused" }) });
    const deleted = await remove(ownerKey, unused.id);
    expect(deleted.status).toBe(204);
    expect(await prisma.rubricTask.count({ where: { id: unused.id } })).toBe(0);
    expect((await read(ownerKey, unused.id)).status).toBe(404);

    const used = await createdTask(projectId);
    await runOf(projectId, used.pipeline, (await stubEndpoint(projectId)).id);
    const refused = await remove(ownerKey, used.id);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(
      /has 1 run: archive it instead/,
    );
    expect(await rowCounts(projectId)).toEqual({ tasks: 1, versions: 1 });
  });

  it("is a 404 for a non-member and a 403 for a reviewer, who can still read it", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 1,
      name: "Rubric API access",
    });
    const created = await createdTask(projectId);
    const outsider = await makeUser();
    const outsiderKey = (await createApiKey(prisma, outsider.userId, "outsider")).key;
    const reviewerKey = await memberKey(projectId, "reviewer");

    for (const response of [
      await remove(outsiderKey, created.id),
      await read(outsiderKey, created.id),
      await exportFile(outsiderKey, created.id),
    ]) {
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe("No such rubric task.");
    }
    expect((await list(outsiderKey, projectId)).status).toBe(404);
    expect((await create(outsiderKey, projectId, { definition: motionRubric({ name: "Theirs" }) })).status).toBe(404);

    expect((await remove(reviewerKey, created.id)).status).toBe(403);
    expect((await archive(reviewerKey, created.id, true)).status).toBe(403);
    expect((await save(reviewerKey, created.id, { definition: motionRubric({ guidelines: "Other." }) })).status).toBe(
      403,
    );
    expect((await create(reviewerKey, projectId, { definition: motionRubric({ name: "Reviewer's" }) })).status).toBe(
      403,
    );
    expect((await read(reviewerKey, created.id)).status).toBe(200);
    expect(await rowCounts(projectId)).toEqual({ tasks: 1, versions: 1 });
  });
});

describe("rubric tasks: export", () => {
  it("exports a YAML file with a safe file name; importing it elsewhere gives the same hash", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 1,
      name: "Rubric API export",
    });
    const name = 'Motion "v2" / ../ünïcode';
    const created = await createdTask(projectId, { definition: motionRubric({ name }) });
    const response = await exportFile(await memberKey(projectId, "viewer"), created.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/yaml; charset=utf-8");
    const disposition = response.headers.get("content-disposition")!;
    expect(disposition).toMatch(
      /^attachment; filename="Motion-v2-\.\.-unicode-v1\.yaml"; filename\*=UTF-8''[A-Za-z0-9%._~-]+$/,
    );
    expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe(`${name}-v1.yaml`);
    const text = await response.text();
    expect(text).toContain("name: ");

    const { projectId: otherProject } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 1,
      name: "Rubric API import",
    });
    const imported = await createdTask(otherProject, { file: text });
    const hashOf = async (id: string) =>
      ((await (await read(ownerKey, id)).json()) as { versions: { hash: string }[] }).versions[0]!.hash;
    expect(await hashOf(imported.id)).toBe(await hashOf(created.id));
  });

  it("exports an earlier version with ?version=, and a version the task lacks is a 404", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 1,
      name: "Rubric API export versions",
    });
    const created = await createdTask(projectId);
    expect(
      (await save(ownerKey, created.id, { definition: motionRubric({ guidelines: "Second version." }) })).status,
    ).toBe(201);
    const latest = await exportFile(ownerKey, created.id);
    expect(latest.headers.get("content-disposition")).toContain('filename="Motion-v2.yaml"');
    expect(await latest.text()).toContain("Second version.");
    const first = await exportFile(ownerKey, created.id, "?version=1");
    expect(first.headers.get("content-disposition")).toContain('filename="Motion-v1.yaml"');
    expect(await first.text()).toContain("Be strict about jitter.");
    expect((await exportFile(ownerKey, created.id, "?version=3")).status).toBe(404);
    expect((await exportFile(ownerKey, created.id, "?version=zero")).status).toBe(400);
  });
});
