/**
 * Another project's rubric task ids are simply unknown to a request: each /api/v1 request reads its own project's
 * catalogue (the built-in tasks and that project's rubric tasks). A caller who is a member of both projects asks
 * project A with project B's pipeline, metric and target ids and gets the answers every unknown id gets (400 naming
 * the field); project B's own requests take them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { catalogFor } from "@/lib/task-modules/task-catalogue";
import { createRubricTask } from "@/lib/rubrics/rubric-tasks";
import { apiRequest, routeContext } from "@/testkit/testing/api-request";
import { makeUser } from "@/testkit/testing/fixtures";
import { projectWithFramedVideos } from "@/testkit/testing/judge-fixtures";
import { POST as createRunRoute } from "../projects/[projectId]/runs/route";
import { GET as videosRoute } from "../projects/[projectId]/videos/route";
import { GET as agreementRoute } from "../projects/[projectId]/agreement/route";
import { projectAccess } from "@/lib/authz/permissions";

let owner: Actor;
let key: string;
let a: string;
let b: string;
let pipelineOfB: string;
let metricOfB: string;
let targetOfB: string;
beforeAll(async () => {
  owner = await makeUser();
  key = (await createApiKey(prisma, owner.userId, "two projects")).key;
  a = (await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1, name: "Project A" })).projectId;
  b = (await projectWithFramedVideos(prisma, owner, { videoCount: 1, keyFrames: 1, name: "Project B" })).projectId;
  const task = await createRubricTask(prisma, await projectAccess(prisma, owner, b, "rubrics.manage"), {
    definition: {
      name: "B's own",
      frames: { mode: "key_frames" },
      prompt: "Rate the key frames. {{frames}}\n{{criteria}}",
      criteria: [
        { id: "shine", name: "Shine", definition: "How it shines.", type: "numeric", min: 0, max: 4, step: 1 },
      ],
    },
  });
  pipelineOfB = task.pipeline;
  const declared = (await catalogFor(prisma, b)).taskOf(pipelineOfB);
  metricOfB = declared.metrics[0]!.id;
  targetOfB = declared.targets[0]!.id;
});

const error = async (response: Response) => ({
  status: response.status,
  ...((await response.json()) as { error: { code: string; message: string } }).error,
});

describe("another project's rubric ids in a request", () => {
  it("are an unknown pipeline to project A's run API (400 naming the pipeline, listing no rubric id)", async () => {
    const response = await createRunRoute(
      apiRequest(`/api/v1/projects/${a}/runs`, key, {
        method: "POST",
        body: JSON.stringify({ pipeline: pipelineOfB, endpointId: "any" }),
      }),
      routeContext({ projectId: a }),
    );
    const answer = await error(response);
    expect(answer).toMatchObject({ status: 400, code: "invalid_request" });
    expect(answer.message).toMatch(/^pipeline: Invalid option: expected one of /);
    expect(answer.message).not.toMatch(/rubric_\d+/);
  });

  it("are an unknown sort, metric filter and category to project A's video list, and known to project B's", async () => {
    const list = (project: string, query: string) =>
      videosRoute(apiRequest(`/api/v1/projects/${project}/videos?${query}`, key), routeContext({ projectId: project }));
    for (const query of [`sort=${metricOfB}`, `min.${metricOfB}=1`, `category=${targetOfB}`]) {
      const answer = await error(await list(a, query));
      expect(answer, query).toMatchObject({ status: 400, code: "invalid_request" });
      expect((await list(b, query)).status, query).toBe(200);
    }
  });

  it("are an unknown metric filter to project A's agreement report", async () => {
    const response = await agreementRoute(
      apiRequest(`/api/v1/projects/${a}/agreement?max.${metricOfB}=2`, key),
      routeContext({ projectId: a }),
    );
    expect(await error(response)).toMatchObject({ status: 400, code: "invalid_request" });
    const own = await agreementRoute(
      apiRequest(`/api/v1/projects/${b}/agreement?max.${metricOfB}=2`, key),
      routeContext({ projectId: b }),
    );
    expect(own.status).toBe(200);
  });
});
