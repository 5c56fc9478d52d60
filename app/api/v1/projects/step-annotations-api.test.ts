import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { addMember } from "@/lib/projects/projects";
import { routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { GET, POST } from "./[projectId]/step-annotations/route";
import { projectAccess } from "@/lib/authz/permissions";

let owner: Actor;
let ownerKey: string;
beforeAll(async () => {
  owner = await makeUser();
  ownerKey = (await createApiKey(prisma, owner.userId, "t")).key;
});

async function send(
  projectId: string,
  name: string,
  text: string,
  fields: Record<string, string> = {},
  key = ownerKey,
) {
  const form = new FormData();
  for (const [field, value] of Object.entries(fields)) form.set(field, value);
  form.set("file", new Blob([new TextEncoder().encode(text) as BlobPart]), name);
  const request = new Request(`http://localhost:3000/api/v1/projects/${projectId}/step-annotations`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}` },
    body: form,
  });
  const response = await POST(request, routeContext({ projectId }));
  return { status: response.status, body: (await response.json()) as any };
}

const CSV = [
  "video,theme,duration,dataset,start,end,text",
  "A ball rolls down a ramp number 0-0.mp4,Roll a ball,30,hirest,0,10,set the ball on the ramp",
  "A ball rolls down a ramp number 0-0.mp4,,,,10,20,let it go",
].join("\n");

describe("step annotations through the API", () => {
  it("dry-runs a CSV, imports it as clips, lists the set; a broken file is a 422 with lines; a reviewer gets a 403", async () => {
    const { projectId } = await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1 });
    const dry = await send(projectId, "steps.csv", CSV, { dryRun: "true" });
    expect(dry).toMatchObject({
      status: 200,
      body: {
        dryRun: true,
        videos: 1,
        clips: 1,
        byDataset: { hirest: 1 },
        plans: [{ line: 2, clips: [{ duration: 30, fromStep: 1, toStep: 2 }], discarded: [] }],
      },
    });
    const stored = await send(projectId, "steps.csv", CSV, { name: "Ramp steps" });
    expect(stored).toMatchObject({
      status: 201,
      body: { dryRun: false, set: { kind: "step_annotations", name: "Ramp steps", itemCount: 1 } },
    });
    const listed = await GET(
      new Request(`http://localhost:3000/api/v1/projects/${projectId}/step-annotations`, {
        headers: { authorization: `Bearer ${ownerKey}` },
      }),
      routeContext({ projectId }),
    );
    expect(((await listed.json()) as any).sets.map((s: { name: string }) => s.name)).toEqual(["Ramp steps"]);

    const broken = await send(projectId, "steps.csv", CSV.replace("10,20,let it go", "20,10,let it go"));
    expect(broken).toMatchObject({
      status: 422,
      body: {
        error: {
          code: "invalid_file",
          details: { errors: [{ line: 2, message: "steps[2]: ends at 10s, not after its start 20s" }] },
        },
      },
    });

    const reviewer = await makeUser();
    await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
      projectId,
      email: reviewer.email,
      role: "reviewer",
    });
    expect(
      (await send(projectId, "steps.csv", CSV, {}, (await createApiKey(prisma, reviewer.userId, "t")).key)).status,
    ).toBe(403);
  });
});
