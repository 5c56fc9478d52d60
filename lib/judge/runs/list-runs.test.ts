import { beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../auth/actor";
import { prisma } from "../../db/prisma";
import { createProject } from "../../projects/projects";
import { makeUser } from "../../../testkit/testing/fixtures";
import { listRuns } from "./list-runs";
import { projectAccess } from "../../authz/permissions";

/*
 * Four runs of one vLLM endpoint started the same second read "Judge: vLLM … (2026-11-28)" four times. The runs
 * list names each by what sets it apart: its input mode, frames, samples or endpoint address.
 */
let owner: Actor;
let projectId: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  owner = await makeUser();
  projectId = (await createProject(prisma, owner, { name: "Runs list names" })).id;
  const endpoint = await prisma.judgeEndpoint.create({
    data: { projectId, name: "vLLM", baseUrl: "http://gpu-1:8000/v1", model: "qwen2.5-vl", createdById: owner.userId },
  });
  const snapshot = { name: "vLLM", model: "qwen2.5-vl", baseUrl: "http://gpu-1:8000/v1", temperature: 0 };
  const make = async (key: string, data: Record<string, unknown>) => {
    ids[key] = (
      await prisma.judgeRun.create({
        data: {
          projectId,
          pipeline: "caption_style",
          endpointId: endpoint.id,
          createdById: owner.userId,
          status: "done",
          inputMode: "images",
          settings: { frames: 8 },
          endpointSnapshot: snapshot,
          createdAt: new Date(Date.UTC(2026, 10, 28, 7, 12, 5)),
          ...data,
        },
      })
    ).id;
  };
  await make("plain", {});
  await make("mode", { inputMode: "video-file" });
  await make("frames", { settings: { frames: 32 } });
  await make("samples", { ensemble: { kind: "samples", samples: 5, temperature: 0.7 } });
  await make("endpoint", { endpointSnapshot: { ...snapshot, baseUrl: "http://gpu-2:8000/v1" } });
});

describe("the runs list's names", () => {
  it("tell apart runs that differ only by input mode, frames, samples or endpoint address", async () => {
    const runs = await listRuns(prisma, await projectAccess(prisma, owner, projectId, "project.view"));
    const label = new Map(runs.map((r) => [r.id, r.label!]));
    expect(new Set(label.values()).size).toBe(5);
    expect(label.get(ids.mode!)).toContain("input mode video-file");
    expect(label.get(ids.plain!)).toContain("input mode images");
    expect(label.get(ids.frames!)).toContain("frames 32");
    expect(label.get(ids.samples!)).toContain("ensemble samples of 5");
    expect(label.get(ids.endpoint!)).toContain("endpoint at http://gpu-2:8000/v1");
    for (const name of label.values()) expect(name).not.toMatch(/#\d of/);
  });
});
