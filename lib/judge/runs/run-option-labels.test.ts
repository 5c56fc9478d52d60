import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { createProject } from "../../projects/projects";
import { makeUser } from "../../../testkit/testing/fixtures";
import { runNameOfRow } from "../../run-records/run-name";
import { runPickerLabels } from "./run-option-labels";
import { BUILT_IN_DECLARATIONS } from "../../tasks/registry";

/*
 * The video page's run selector and the new-queue form listed two runs of the stub endpoint started in the same
 * minute as the same line. Their labels name the task and what differs (the temperature here), to the second.
 */
let owner: Actor;
let projectId: string;
let otherProjectRun: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  owner = await makeUser();
  projectId = (await createProject(prisma, owner, { name: "Run pickers" })).id;
  const endpoint = await prisma.judgeEndpoint.create({
    data: {
      projectId,
      name: "Stub LLM (simulated)",
      baseUrl: "http://127.0.0.1:1/v1",
      model: "stub-vision",
      createdById: owner.userId,
    },
  });
  const make = async (key: string, second: number, temperature: number) => {
    ids[key] = (
      await prisma.judgeRun.create({
        data: {
          projectId,
          pipeline: "hallucination",
          endpointId: endpoint.id,
          createdById: owner.userId,
          status: "done",
          simulated: true,
          settings: { aggregation: "mean" },
          endpointSnapshot: {
            name: "Stub LLM (simulated)",
            model: "stub-vision",
            baseUrl: "http://127.0.0.1:1/v1",
            temperature,
          },
          createdAt: new Date(Date.UTC(2026, 10, 27, 13, 1, second)),
        },
      })
    ).id;
  };
  await make("cold", 5, 0);
  await make("warm", 30, 0.7);
  const other = await createProject(prisma, owner, { name: "Elsewhere" });
  const otherEndpoint = await prisma.judgeEndpoint.create({
    data: { projectId: other.id, name: "E", baseUrl: "http://127.0.0.1:1/v1", model: "m", createdById: owner.userId },
  });
  otherProjectRun = (
    await prisma.judgeRun.create({
      data: {
        projectId: other.id,
        pipeline: "hallucination",
        endpointId: otherEndpoint.id,
        createdById: owner.userId,
        status: "done",
        settings: {},
      },
    })
  ).id;
});

describe("run picker labels", () => {
  it("tell apart runs that the run name calls alike: the task, to the second, and the setting that differs", async () => {
    const rows = await prisma.judgeRun.findMany({
      where: { id: { in: [ids.cold!, ids.warm!] } },
      include: { endpoint: true },
    });
    expect(new Set(rows.map((r) => runNameOfRow(r, BUILT_IN_DECLARATIONS))).size).toBe(1);
    const labels = await runPickerLabels(prisma, projectId, [ids.cold!, ids.warm!, otherProjectRun]);
    expect(labels.get(ids.cold!)).toBe(
      "Hallucination · stub-vision @ Stub LLM (simulated) · 27 Nov 2026 13:01:05 · temperature 0",
    );
    expect(labels.get(ids.warm!)).toBe(
      "Hallucination · stub-vision @ Stub LLM (simulated) · 27 Nov 2026 13:01:30 · temperature 0.7",
    );
    // Another project's run is not labelled here.
    expect(labels.has(otherProjectRun)).toBe(false);
    expect((await runPickerLabels(prisma, projectId, [])).size).toBe(0);
  });
});
