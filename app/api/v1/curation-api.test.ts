import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { addMember } from "@/lib/projects/projects";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { insertCandidateSet } from "@/testkit/tasks/construction/candidate-fixtures";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { GET as getExport } from "./candidate-sets/[setId]/export/route";
import { GET as getHistogram } from "./candidate-sets/[setId]/letter-histogram/route";
import { POST as postQaSet } from "./candidate-sets/[setId]/qa-sets/route";
import { declaredAnswer } from "@/testkit/testing/declared-answer";
import { GET as getNext } from "./curation-queues/[queueId]/next/route";
import { GET as getQueue } from "./curation-queues/[queueId]/route";
import { GET as getCuration, PUT as putCuration } from "./items/[itemId]/curation/route";
import { GET as listQueues, POST as postQueue } from "./projects/[projectId]/curation-queues/route";
import { projectAccess } from "@/lib/authz/permissions";

let owner: Actor;
let ownerKey: string;
beforeAll(async () => {
  owner = await makeUser();
  ownerKey = (await createApiKey(prisma, owner.userId, "t")).key;
});

async function memberKey(projectId: string, role: "reviewer" | "viewer") {
  const user = await makeUser();
  await addMember(prisma, await projectAccess(prisma, owner, projectId, "members.manage"), {
    projectId,
    email: user.email,
    role,
  });
  return { user, key: (await createApiKey(prisma, user.userId, "t")).key };
}

const json = async (response: Response) => ({ status: response.status, body: (await response.json()) as any });

describe("curation and export through the API", () => {
  it("creates a queue (owners), hands out candidates, saves decisions with 409s on stale versions, and exports", async () => {
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, owner, {
      videoCount: 1,
      keyFrames: 1,
      name: "Curation API",
    });
    const { setId, itemIds } = await insertCandidateSet(prisma, owner, projectId, videoIds, [
      { externalId: "c1", video: 0, question: "What happens after the ball is placed?", answer: "It rolls down." },
      { externalId: "c2", video: 0, question: "What is done last?", answer: "The ball is caught." },
    ]);
    const viewer = await memberKey(projectId, "viewer");
    const reviewer = await memberKey(projectId, "reviewer");
    const path = `/api/v1/projects/${projectId}/curation-queues`;
    const body = JSON.stringify({ candidateSetId: setId, name: "Pass 1", scope: "all" });
    expect(
      (await json(await postQueue(apiRequest(path, viewer.key, { method: "POST", body }), routeContext({ projectId }))))
        .status,
    ).toBe(403);
    const created = await json(
      await postQueue(apiRequest(path, ownerKey, { method: "POST", body }), routeContext({ projectId })),
    );
    expect(created).toMatchObject({
      status: 201,
      body: { name: "Pass 1", curatorsPerQuestion: 1, progress: { candidates: 2 } },
    });
    const queueId = created.body.id;
    expect(
      (await json(await listQueues(apiRequest(path, viewer.key), routeContext({ projectId })))).body.queues,
    ).toHaveLength(1);

    const next = await json(
      await getNext(
        apiRequest(`/api/v1/curation-queues/${queueId}/next?skip=${itemIds.c1}`, reviewer.key),
        routeContext({ queueId }),
      ),
    );
    expect(next.body).toEqual({ itemId: itemIds.c2, left: 2 });
    expect(declaredAnswer(getNext, 200, next.body)).toEqual(next.body);
    expect(
      (await getNext(apiRequest(`/api/v1/curation-queues/${queueId}/next`, viewer.key), routeContext({ queueId })))
        .status,
    ).toBe(403);

    const put = (key: string, itemId: string, payload: unknown) =>
      putCuration(
        apiRequest(`/api/v1/items/${itemId}/curation`, key, { method: "PUT", body: JSON.stringify(payload) }),
        routeContext({ itemId }),
      );
    expect((await put(viewer.key, itemIds.c1!, { decision: "accept" })).status).toBe(403);
    expect(
      await json(
        await put(reviewer.key, itemIds.c1!, {
          decision: "accept",
          edits: { question: "What happens right after the ball is placed?" },
        }),
      ),
    ).toMatchObject({
      status: 200,
      body: { version: 1, decision: "accept" },
    });
    expect(
      (await put(reviewer.key, itemIds.c1!, { decision: "reject", reason: "too easy", expectedVersion: 1 })).status,
    ).toBe(200);
    const stale = await json(await put(reviewer.key, itemIds.c1!, { decision: "accept", expectedVersion: 1 }));
    expect(stale).toMatchObject({
      status: 409,
      body: {
        error: { code: "conflict", details: { current: { version: 2, decision: "reject", reason: "too easy" } } },
      },
    });
    expect(
      (
        await put(reviewer.key, itemIds.c1!, {
          decision: "accept",
          edits: { question: "What happens right after the ball is placed?" },
          expectedVersion: 2,
        })
      ).status,
    ).toBe(200);
    expect((await put(reviewer.key, itemIds.c2!, { decision: "maybe" })).status).toBe(400);

    const record = await json(
      await getCuration(
        apiRequest(`/api/v1/items/${itemIds.c1}/curation`, viewer.key),
        routeContext({ itemId: itemIds.c1! }),
      ),
    );
    expect(record.body.history.map((h: { version: number }) => h.version)).toEqual([1, 2, 3]);
    expect(record.body.outcome.status).toBe("accepted");
    expect(
      (
        await json(
          await getQueue(apiRequest(`/api/v1/curation-queues/${queueId}`, viewer.key), routeContext({ queueId })),
        )
      ).body.counts,
    ).toEqual({
      accepted: 1,
      rejected: 0,
      disputed: 0,
      pending: 1,
    });

    const download = await getExport(
      apiRequest(`/api/v1/candidate-sets/${setId}/export?format=open`, viewer.key),
      routeContext({ setId }),
    );
    expect(download.headers.get("content-type")).toContain("application/x-ndjson");
    expect(download.headers.get("content-disposition")).toMatch(/attachment; filename=".*-open\.jsonl"/);
    const exported = (await download.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(exported.map((l) => [l.id, l.question, l.format])).toEqual([
      ["c1", "What happens right after the ball is placed?", "open"],
    ]);
    expect(
      (
        await getExport(
          apiRequest(`/api/v1/candidate-sets/${setId}/export?format=xml`, viewer.key),
          routeContext({ setId }),
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await json(
          await getHistogram(
            apiRequest(`/api/v1/candidate-sets/${setId}/letter-histogram`, viewer.key),
            routeContext({ setId }),
          ),
        )
      ).body,
    ).toMatchObject({
      counts: { accepted: 1 },
      multipleChoice: 0,
      histogram: { A: 0, E: 0 },
    });

    const qaPath = `/api/v1/candidate-sets/${setId}/qa-sets`;
    const qaBody = JSON.stringify({ projectId, format: "open", name: "Ramp benchmark" });
    expect(
      (await postQaSet(apiRequest(qaPath, reviewer.key, { method: "POST", body: qaBody }), routeContext({ setId })))
        .status,
    ).toBe(403);
    const made = await json(
      await postQaSet(apiRequest(qaPath, ownerKey, { method: "POST", body: qaBody }), routeContext({ setId })),
    );
    expect(made).toMatchObject({ status: 201, body: { projectId, count: 1 } });
    const strangerKey = (await createApiKey(prisma, (await makeUser()).userId, "t")).key;
    expect(
      (await postQaSet(apiRequest(qaPath, strangerKey, { method: "POST", body: qaBody }), routeContext({ setId })))
        .status,
    ).toBe(404);
  });
});
