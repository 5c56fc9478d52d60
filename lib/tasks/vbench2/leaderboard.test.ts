/**
 * VBench-2.0's generator leaderboard on PostgreSQL with the stub LLM (a test tool): each generator's total equals
 * the total of its own results (VBench evaluates one model at a time), intervals resample prompts and hold the
 * estimate, the rankings by the judge and by VBench's own results are compared with Kendall's τ, and the route
 * answers JSON, CSV and LaTeX to a viewer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { createApiKey } from "@/lib/auth/api-keys";
import { prisma } from "@/lib/db/prisma";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";
import { createRun } from "@/lib/judge/runs/runs";
import { importVbenchResults } from "@/lib/label-sets/label-sets";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";

import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { GET } from "./routes/vbench2-leaderboard";
import { vbench2Leaderboard } from "./leaderboard";
import { vbench2RunResults } from "./results";
import { stubEndpoint, vbench2Project, type Vbench2VideoSpec } from "../../../testkit/tasks/vbench2/vbench2-fixtures";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";

let stub: StubServer;
let owner: Actor;
beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());

/** GenA passes every Material question, GenB fails question 2 on half its prompts; both have 4 prompts × 2 samples. */
function videos(): Vbench2VideoSpec[] {
  const specs: Vbench2VideoSpec[] = [];
  for (let p = 0; p < 4; p++) {
    for (const sampleIndex of [0, 1]) {
      specs.push({
        model: "GenA",
        dimension: "Material",
        prompt: `Prompt ${p}`,
        sampleIndex,
        auxiliaryInfo: [`[yes] a${p}?`, `[yes] b${p}?`],
      });
      specs.push({
        model: "GenB",
        dimension: "Material",
        prompt: `Prompt ${p}`,
        sampleIndex,
        auxiliaryInfo: [`[yes] a${p}?`, p % 2 ? `[no] b${p}?` : `[yes] b${p}?`],
      });
    }
  }
  return specs;
}

describe("the VBench-2.0 leaderboard", () => {
  it("ranks generators by VBench's total with intervals over prompts, compares pairs and the judge's ranking with VBench's", async () => {
    const { projectId, videoIds } = await vbench2Project(prisma, owner, videos());
    const vlm = await stubEndpoint(prisma, owner, projectId, stub.baseURL, "VLM", `stub-vision-${projectId.slice(-8)}`);
    const run = await createRun(
      { prisma, queue: inlineJudgeQueue(testJudgeDeps()), pipelines: builtInCatalogue().pipelines },
      await projectAccess(prisma, owner, projectId, "runs.manage"),
      createRunSchema(builtInCatalogue()).parse({ pipeline: "vbench2", endpointId: vlm }),
    );

    const board = await vbench2Leaderboard(prisma, owner, projectId, { runId: run.id, samples: 500, seed: 7 });
    expect(board.generators.map((g) => [g.rank, g.model])).toEqual([
      [1, "GenA"],
      [2, "GenB"],
    ]);
    for (const generator of board.generators) {
      const own = await vbench2RunResults(prisma, projectId, run.id, { model: generator.model });
      expect(generator.total.value).toBeCloseTo(own.total, 12);
      expect(generator.total.lower!).toBeLessThanOrEqual(generator.total.value!);
      expect(generator.total.upper!).toBeGreaterThanOrEqual(generator.total.value!);
    }
    // Material: GenA 1, GenB 0.5 (8 videos, 4 prompts each); Physics = Material / 4; total = Physics / 5.
    expect(board.generators[0]!.dimensions.Material).toMatchObject({ score: 1, n: 8, source: "judge" });
    expect(board.generators[1]!.dimensions.Material).toMatchObject({ score: 0.5, n: 8, source: "judge" });
    expect(board.generators[1]!.total.value).toBeCloseTo(0.5 / 4 / 5, 12);
    // GenA never fails: its interval is the point; GenB's spans the prompts that fail and those that pass.
    expect([board.generators[0]!.dimensions.Material!.lower, board.generators[0]!.dimensions.Material!.upper]).toEqual([
      1, 1,
    ]);
    expect(board.generators[1]!.dimensions.Material!.lower!).toBeLessThan(0.5);
    expect(board.pairs).toMatchObject([{ a: "GenA", b: "GenB", n: 4 }]);
    expect(board.pairs[0]!.difference).toBeCloseTo(0.5 / 4 / 5, 12);
    // The same seed gives the same intervals.
    expect(
      (await vbench2Leaderboard(prisma, owner, projectId, { runId: run.id, samples: 500, seed: 7 })).generators,
    ).toEqual(board.generators);

    // VBench's own results rank them the other way round: τ = -1.
    const results = {
      Material: [
        0,
        videoIds.map((_, i) => ({
          video_path:
            videos()[i]!.model === "GenA"
              ? `GenA/Material/${videos()[i]!.prompt}-${videos()[i]!.sampleIndex}.mp4`
              : `GenB/Material/${videos()[i]!.prompt}-${videos()[i]!.sampleIndex}.mp4`,
          video_results: videos()[i]!.model === "GenA" ? 0 : 1,
        })),
      ],
    };
    const labelSet = await importVbenchResults(prisma, await projectAccess(prisma, owner, projectId, "videos.import"), {
      file: new TextEncoder().encode(JSON.stringify(results)),
      fileName: "eval_results.json",
      name: "VBench",
      dryRun: false,
    });
    const withVbench = await vbench2Leaderboard(prisma, owner, projectId, {
      runId: run.id,
      labelSetId: labelSet.labelSet!.id,
      samples: 200,
      seed: 7,
    });
    expect(withVbench.rankings).toEqual({ judge: ["GenA", "GenB"], vbench: ["GenB", "GenA"] });
    expect(withVbench.kendallTau).toEqual([{ a: "judge", b: "vbench", tau: -1 }]);

    // The route, as a viewer: JSON, CSV and LaTeX.
    const viewer = await makeUser();
    await prisma.projectMember.create({ data: { projectId, userId: viewer.userId, role: "viewer" } });
    const key = (await createApiKey(prisma, viewer.userId, "t")).key;
    const get = (query: string) =>
      GET(new Request(`http://x/?${query}`, { headers: { authorization: `Bearer ${key}` } }), {
        params: Promise.resolve({ projectId }),
      });
    const json = await get(`runId=${run.id}&samples=200`);
    expect(json.status).toBe(200);
    expect(((await json.json()) as { generators: { model: string }[] }).generators.map((g) => g.model)).toEqual([
      "GenA",
      "GenB",
    ]);
    const csv = await (await get(`runId=${run.id}&format=csv&samples=200`)).text();
    expect(csv.split("\n")[0]).toMatch(/model/);
    expect(csv).toMatch(/\n1,GenA,/);
    expect(csv).toMatch(/\n2,GenB,/);
    const latex = await (await get(`runId=${run.id}&format=latex&samples=200`)).text();
    expect(latex).toContain("\\begin{tabular}");
    expect(latex).toContain("GenA");
    expect((await get("runId=nope")).status).toBe(404);
    expect((await get(`runId=${run.id}&samples=5`)).status).toBe(400);
  });
});
