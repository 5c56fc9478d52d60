import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/lib/auth/api-keys";
import { projectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { createProject } from "@/lib/projects/projects";
import { createSpan } from "@/lib/spans/span-store";
import { PROJECT_SPAN_TASK } from "@/lib/spans/span-types";
import { spanInputSchema } from "@/lib/spans/span-validation";
import { getStorage } from "@/lib/storage/storage";
import { builtInCatalogue } from "@/lib/task-modules/task-catalogue";
import type { Actor } from "@/lib/auth/actor";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { createReadyVideo } from "@/testkit/testing/ready-video";
import { GET, PUT } from "./[projectId]/span-labels/route";

let projectId: string;
let reviewer: Actor;
let keys: { owner: string; reviewer: string; viewer: string; stranger: string };

beforeAll(async () => {
  const [owner, r, viewer, stranger] = await Promise.all([makeUser(), makeUser(), makeUser(), makeUser()]);
  reviewer = r;
  projectId = (await createProject(prisma, owner, { name: "Span labels" })).id;
  await createProject(prisma, stranger, { name: "Elsewhere" });
  await prisma.projectMember.createMany({
    data: [
      { projectId, userId: reviewer.userId, role: "reviewer" },
      { projectId, userId: viewer.userId, role: "viewer" },
    ],
  });
  const key = async (userId: string) => (await createApiKey(prisma, userId, "t")).key;
  keys = {
    owner: await key(owner.userId),
    reviewer: await key(reviewer.userId),
    viewer: await key(viewer.userId),
    stranger: await key(stranger.userId),
  };
});

const read = (key: string) =>
  GET(apiRequest(`/api/v1/projects/${projectId}/span-labels`, key), routeContext({ projectId }));
const put = (key: string, body: unknown) =>
  PUT(
    apiRequest(`/api/v1/projects/${projectId}/span-labels`, key, { method: "PUT", body: JSON.stringify(body) }),
    routeContext({ projectId }),
  );
const stored = async () =>
  (await prisma.project.findUniqueOrThrow({ where: { id: projectId }, select: { spanLabels: true } })).spanLabels;

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { code: string; message: string } }).error;
}

describe("/api/v1/projects/{projectId}/span-labels", () => {
  it("starts empty; an owner replaces the list, and every member reads it", async () => {
    expect(await (await read(keys.viewer)).json()).toEqual({ labels: [] });
    const labels = [
      { id: "flicker", label: "Flicker", definition: "Brightness jumps between frames." },
      { id: "extra limb", label: "Extra limb", definition: "" },
    ];
    const saved = await put(keys.owner, { labels });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ labels });
    expect(await (await read(keys.reviewer)).json()).toEqual({ labels });
  });

  it("the definition may be left out (empty); ids and labels are trimmed", async () => {
    const saved = await put(keys.owner, { labels: [{ id: " flicker ", label: " Flicker " }] });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ labels: [{ id: "flicker", label: "Flicker", definition: "" }] });
  });

  it("bad lists are a 400 naming the reason, and the saved list stays", async () => {
    await put(keys.owner, { labels: [{ id: "flicker", label: "Flicker", definition: "" }] });
    const before = await stored();
    const cases: [unknown, RegExp][] = [
      [
        {
          labels: [
            { id: "a", label: "A" },
            { id: "a", label: "Again" },
          ],
        },
        /Each label id appears once/,
      ],
      [{ labels: [{ id: "", label: "Empty" }] }, /A label needs an id/],
      [{ labels: [{ id: "x".repeat(65), label: "Long" }] }, /at most 64 characters/],
      [{ labels: [{ id: "tab\there", label: "Tab" }] }, /no control characters/],
      [{ labels: [{ id: "a", label: "" }] }, /label/],
      [{ labels: Array.from({ length: 201 }, (_, i) => ({ id: `l${i}`, label: `L${i}` })) }, /at most 200/],
      [{ labels: [{ id: "a", label: "A", colour: "red" }] }, /colour/],
      [{ labels: "flicker" }, /labels/],
      [{}, /labels/],
    ];
    for (const [body, reason] of cases) {
      const response = await put(keys.owner, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect((await errorOf(response)).message, JSON.stringify(body).slice(0, 80)).toMatch(reason);
    }
    expect(await stored()).toEqual(before);
  });

  it("prototype names are ordinary label ids: saved, listed and usable on spans", async () => {
    const labels = ["__proto__", "constructor", "toString"].map((id) => ({ id, label: id, definition: "" }));
    const saved = await put(keys.owner, { labels });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ labels });
    const video = await createReadyVideo(prisma, { projectId, relativePath: "p.mp4", createdById: reviewer.userId });
    await prisma.videoFrameTimes.create({ data: { videoId: video.id, timesS: [0, 0.5], endS: 1, variable: false } });
    const span = await createSpan(
      { prisma, storage: getStorage() },
      await projectAccess(prisma, reviewer, projectId, "scores.review"),
      video,
      spanInputSchema.parse({ task: PROJECT_SPAN_TASK, label: "__proto__", startFrame: 0, endFrame: 1 }),
      { catalogue: builtInCatalogue().declarations() },
    );
    expect(span.label).toBe("__proto__");
  });

  it("a label that spans carry cannot leave the list (409 naming it and its spans); once withdrawn, it can", async () => {
    const labels = [{ id: "kept", label: "Kept", definition: "" }];
    const refused = await put(keys.owner, { labels });
    expect(refused.status).toBe(409);
    const error = await errorOf(refused);
    expect(error.code).toBe("labels_in_use");
    expect(error.message).toContain('"__proto__" (1 spans)');
    expect((await (await read(keys.owner)).json()) as unknown).toMatchObject({
      labels: [{ id: "__proto__" }, { id: "constructor" }, { id: "toString" }],
    });
    // Renaming what a label is called, or its definition, keeps its id: allowed.
    const renamed = await put(keys.owner, {
      labels: [{ id: "__proto__", label: "Prototype", definition: "d" }, ...labels],
    });
    expect(renamed.status).toBe(200);

    await prisma.span.updateMany({ where: { projectId, label: "__proto__" }, data: { withdrawn: true } });
    expect((await put(keys.owner, { labels })).status).toBe(200);
    expect(await stored()).toEqual(labels);
  });

  it("owners only: a reviewer or a viewer is a 403, another project's member a 404, and nothing changes", async () => {
    const before = await stored();
    const body = { labels: [{ id: "mine", label: "Mine" }] };
    expect((await put(keys.reviewer, body)).status).toBe(403);
    expect((await put(keys.viewer, body)).status).toBe(403);
    expect((await put(keys.stranger, body)).status).toBe(404);
    expect((await read(keys.stranger)).status).toBe(404);
    expect(await stored()).toEqual(before);
  });

  it("signed out is a 401", async () => {
    const anonymous = new Request(`http://localhost:3000/api/v1/projects/${projectId}/span-labels`);
    expect((await GET(anonymous, routeContext({ projectId }))).status).toBe(401);
  });
});
