/**
 * The vbench2 task end to end on PostgreSQL with the stub LLM (a test tool) answering yes/no by rule: "[yes]" and
 * "[no]" written into the auxiliary_info questions decide the stub's answers (lib/tasks/vbench2/stub-rules.ts), and
 * queued answers stand in for the VLM where a question is VBench's own. Every number below is worked out by hand
 * from VBench-2.0's code.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Actor } from "@/lib/auth/actor";
import { prisma } from "@/lib/db/prisma";
import { createRunSchema } from "@/lib/judge/runs/run-input.validation";

import { createRun, getRunStatus } from "@/lib/judge/runs/runs";
import { startStubLlm, type StubServer } from "@/testkit/llm-stub/stub-server";
import { makeUser } from "@/testkit/testing/fixtures";
import { inlineJudgeQueue, testJudgeDeps } from "@/testkit/testing/judge-deps";
import { stubEndpoint, vbench2Project, type Vbench2VideoSpec } from "../../../testkit/tasks/vbench2/vbench2-fixtures";
import type { Vbench2VideoSummary } from "./pipeline";
import { vbench2RunResults } from "./results";
import { loadVideoJob } from "@/lib/judge/engine/step-store";
import { builtInCatalogue } from "../../task-modules/task-catalogue";
import { projectAccess } from "../../authz/permissions";
import { accessOfRun } from "../../../testkit/testing/record-access";

let stub: StubServer;
let owner: Actor;

beforeAll(async () => {
  stub = await startStubLlm();
  owner = await makeUser();
});
afterAll(() => stub.close());
beforeEach(() => stub.reset());

const inlineQueue = inlineJudgeQueue(testJudgeDeps());
const start = async (projectId: string, input: Record<string, unknown>) =>
  createRun(
    { prisma, queue: inlineQueue, pipelines: builtInCatalogue().pipelines },
    await projectAccess(prisma, owner, projectId, "runs.manage"),
    createRunSchema(builtInCatalogue()).parse(input),
  );

const endpoint = (projectId: string, name: string, model: string) =>
  stubEndpoint(prisma, owner, projectId, stub.baseURL, name, model);

async function callsOf(runId: string) {
  const calls = await prisma.llmCall.findMany({ where: { runId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return calls.map((c) => ({ model: c.model, ...(c.request as { text: string; frameIds: string[] }) }));
}

const value = (summary: Vbench2VideoSummary, dimension: keyof Vbench2VideoSummary["dimensions"]) => {
  const d = summary.dimensions[dimension]!;
  return d.excludedReason !== null ? "excluded" : d.value;
};

async function judged(videos: Vbench2VideoSpec[], settings: Record<string, unknown> = {}) {
  const { projectId, videoIds } = await vbench2Project(prisma, owner, videos);
  const suffix = projectId.slice(-8);
  const vlm = await endpoint(projectId, "VLM", `stub-vision-${suffix}`);
  const run = await start(projectId, { pipeline: "vbench2", endpointId: vlm, settings });
  const status = await getRunStatus(prisma, await accessOfRun(prisma, owner, run.id), run.id);
  const rows = await prisma.runVideo.findMany({ where: { runId: run.id }, select: { videoId: true, summary: true } });
  const summaries = videoIds.map((id) => rows.find((r) => r.videoId === id)?.summary as unknown as Vbench2VideoSummary);
  return { projectId, videoIds, run, status, summaries };
}

describe("vbench2 runs", () => {
  it("Material: question 1 gates (no gives -1), question 2 decides; every question is one call with the 64 frames first", async () => {
    const { status, summaries, run } = await judged([
      {
        model: "GenA",
        dimension: "Material",
        prompt: "Paint mixes",
        auxiliaryInfo: ["[yes] Do the paints mix? (yes or no)", "[yes] Is it green? (yes or no)"],
      },
      {
        model: "GenA",
        dimension: "Material",
        prompt: "Ice melts",
        auxiliaryInfo: ["[yes] Is there ice? (yes or no)", "[no] Does it melt? (yes or no)"],
      },
      {
        model: "GenA",
        dimension: "Material",
        prompt: "Wood burns",
        auxiliaryInfo: ["[no] Is there wood? (yes or no)", "[yes] Does it burn? (yes or no)"],
      },
      {
        model: "GenA",
        dimension: "Material",
        prompt: "One question",
        auxiliaryInfo: ["[no] Does it bend? (yes or no)"],
      },
    ]);
    expect(status).toMatchObject({ status: "done", steps: { failed: 0, parse_failed: 0 } });
    expect(
      summaries.map((s) => [s.dimensions.Material!.value, s.dimensions.Material!.excludedReason !== null]),
    ).toEqual([
      [1, false],
      [0, false],
      [null, true],
      [0, false],
    ]);
    const calls = await prisma.llmCall.findMany({ where: { runId: run.id }, orderBy: { createdAt: "asc" } });
    expect(calls).toHaveLength(7);
    const first = calls.find((c) => (c.request as { text: string }).text.endsWith("Do the paints mix? (yes or no)"))!;
    const request = first.request as { text: string; frameIds: string[] };
    expect(request.frameIds).toHaveLength(64);
    // 79 frames at 24 fps: 3.29 s; indices linspace(0, 78, 64) → 0, 1, 2, 3, 4, 6, …, 78.
    expect(request.text).toMatch(
      /^The video lasts for 3\.29 seconds, and 64 frames are uniformly sampled from it\. These frames are located at 0\.00s,0\.04s,0\.08s,0\.12s,0\.17s,0\.25s,.*,3\.25s\. Please answer yes or no only for the following questions\n\[yes\] Do the paints mix\? \(yes or no\)$/,
    );
  });

  it("a run keeps the auxiliary info it was created with: a prompt list stored later changes the next run, not this one", async () => {
    const { videoIds, run } = await judged([
      { model: "GenA", dimension: "Material", prompt: "Paint mixes", auxiliaryInfo: ["[yes] mix?", "[yes] green?"] },
    ]);
    await prisma.video.update({
      where: { id: videoIds[0]! },
      data: { auxiliaryInfo: { Material: ["[no] changed?"] } },
    });
    expect((await loadVideoJob(prisma, run.id, videoIds[0]!))!.video.auxiliaryInfo).toEqual({
      Material: ["[yes] mix?", "[yes] green?"],
    });
  });

  it("Human_Clothes: a no to 'only one person' stops the questions and excludes the video", async () => {
    stub.addFault({
      fault: { kind: "content", content: "No, there are two people." },
      match: "Is there only one person in the video throughout?",
      times: 1,
    });
    const { summaries, run } = await judged([
      { model: "GenA", dimension: "Human_Clothes", prompt: "A man is doing yoga." },
    ]);
    expect(value(summaries[0]!, "Human_Clothes")).toBe("excluded");
    expect((await callsOf(run.id)).map((c) => c.text.split("\n").pop())).toEqual([
      "Is there only one person in the video throughout?",
    ]);
    expect(summaries[0]!.dimensions.Human_Clothes!.questions.map((q) => q.notAsked)).toEqual([
      null,
      expect.stringContaining("not asked"),
      expect.stringContaining("not asked"),
    ]);
  });

  it("Composition: the one-creature gate (no gives 1/n, not -1), then all-or-nothing or the share found", async () => {
    stub.addFault({
      fault: { kind: "content", content: "Yes" },
      match: "Judging whether the video occurs only one creature",
      times: 1,
    });
    const gatedYes = await judged([
      {
        model: "GenA",
        dimension: "Composition",
        prompt: "A lion with wings",
        auxiliaryInfo: { question: ["[yes] wings", "[no] a lion", "[yes] sky"], judge: [true, false] },
      },
    ]);
    expect(value(gatedYes.summaries[0]!, "Composition")).toBeCloseTo(2 / 3, 12);
    // The gate is question 1, the descriptions 2–4.
    const scores = await prisma.score.findMany({
      where: { runId: gatedYes.run.id },
      orderBy: { category: "asc" },
      select: { category: true, value: true },
    });
    expect(scores).toEqual([
      { category: "composition:q1", value: 1 },
      { category: "composition:q2", value: 1 },
      { category: "composition:q3", value: 0 },
      { category: "composition:q4", value: 1 },
    ]);

    stub.addFault({
      fault: { kind: "content", content: "No." },
      match: "Judging whether the video occurs only one creature",
      times: 1,
    });
    const gatedNo = await judged([
      {
        model: "GenA",
        dimension: "Composition",
        prompt: "A lion with wings",
        auxiliaryInfo: { question: ["[yes] wings", "[yes] a lion", "[yes] sky"], judge: [true, false] },
      },
    ]);
    expect(value(gatedNo.summaries[0]!, "Composition")).toBeCloseTo(1 / 3, 12);
    expect(await callsOf(gatedNo.run.id)).toHaveLength(1);

    const allOrNothing = await judged([
      {
        model: "GenA",
        dimension: "Composition",
        prompt: "A cat and a dog",
        auxiliaryInfo: { question: ["[yes] a cat", "[no] a dog"], judge: [false, true] },
      },
    ]);
    expect(value(allOrNothing.summaries[0]!, "Composition")).toBe(0);
    expect((await callsOf(allOrNothing.run.id)).map((c) => c.text.split("\n").pop()).sort()).toEqual([
      "[no] a dog",
      "[yes] a cat",
    ]);
  });

  it("Dynamic_Spatial_Relationship: question 1 with the first 32 frames and VBench's '1 frames' quirk, question 2 with the last frame; the corrected variant says 32", async () => {
    const spec = {
      model: "GenA",
      dimension: "Dynamic_Spatial_Relationship",
      prompt: "A dog left of a table",
      auxiliaryInfo: [
        "[yes] Is the dog on the left of the table? (yes or no)",
        "[yes] Is the dog on the front of the table? (yes or no)",
      ],
    };
    const faithful = await judged([spec]);
    expect(value(faithful.summaries[0]!, "Dynamic_Spatial_Relationship")).toBe(1);
    const calls = await callsOf(faithful.run.id);
    const first = calls.find((c) => c.text.startsWith("The video lasts"));
    const last = calls.find((c) => c.text.startsWith("Please answer"));
    expect(first!.frameIds).toHaveLength(32);
    expect(last!.frameIds).toHaveLength(1);
    expect(first!.text).toMatch(
      /^The video lasts for 1\.65 seconds, and 1 frames are uniformly sampled from it\. These frames are located at 0\.00s,0\.04s,.*\. Please answer yes or no only for the following questions\.\n\[yes\] Is the dog on the left/,
    );
    expect(last!.text).toBe(
      "Please answer yes or no only for the following questions.\n[yes] Is the dog on the front of the table? (yes or no)",
    );
    const corrected = await judged([spec], { variant: "corrected" });
    const firstCorrected = (await callsOf(corrected.run.id)).find((c) => c.text.startsWith("The video lasts"));
    expect(firstCorrected!.text).toMatch(
      /and 32 frames are uniformly sampled from it\. These frames are located at ((\d+\.\d\ds),){31}\d+\.\d\ds\. Please/,
    );
  });

  it("Complex_Plot: plots found in order before the first miss over the plots expected; a numbered answer with too many plots is described again and summarised", async () => {
    const plots = [
      "[yes] The race begins.",
      "[yes] The baton is passed.",
      "[no] Team A falls behind.",
      "[yes] The last runner sprints.",
      "[yes] Team A wins.",
    ];
    const numbered = await judged([
      { model: "GenA", dimension: "Complex_Plot", prompt: "A relay race", auxiliaryInfo: plots },
    ]);
    expect(value(numbered.summaries[0]!, "Complex_Plot")).toBeCloseTo(2 / 5, 12);
    const calls = await callsOf(numbered.run.id);
    // The VLM's numbered plot, then three judgements (stopping at the first no): no description, no summary.
    expect(calls.map((c) => (c.frameIds.length ? "vlm" : "text"))).toEqual(["vlm", "text", "text", "text"]);
    expect(calls[0]!.text).toMatch(
      /Return the plot in video\. Here is the template\.\.\n1\. ; 2\. ; 3\. ; 4\. ; 5\. \.$/,
    );
    expect(calls[1]!.text).toMatch(
      /^\n {24}prompt1: \[yes\] The race begins\.\n {24}prompt2: A figure|^\n {24}prompt1: \[yes\] The race begins\.\n {24}prompt2: /,
    );

    stub.addFault({
      fault: { kind: "content", content: "1. a 2. b 3. c 4. d 5. e 6. f" },
      match: "Return the plot in video",
      times: 1,
    });
    const tooMany = await judged([
      {
        model: "GenA",
        dimension: "Complex_Plot",
        prompt: "A relay race",
        auxiliaryInfo: plots.map((p) => p.replace("[no]", "[yes]")),
      },
    ]);
    expect(value(tooMany.summaries[0]!, "Complex_Plot")).toBe(1);
    const steps = (await callsOf(tooMany.run.id)).map((c) => (c.frameIds.length ? "vlm" : "text"));
    expect(steps).toEqual(["vlm", "vlm", "text", "text", "text", "text", "text", "text"]);

    stub.addFault({
      fault: { kind: "content", content: "The runners race and Team A wins." },
      match: "Return the plot in video",
      times: 1,
    });
    const whole = await judged([
      {
        model: "GenA",
        dimension: "Complex_Plot",
        prompt: "A relay race",
        auxiliaryInfo: ["[yes] a", "[no] b", "[yes] c", "[yes] d"],
      },
    ]);
    expect(value(whole.summaries[0]!, "Complex_Plot")).toBeCloseTo(1 / 4, 12);
    const wholeCalls = await callsOf(whole.run.id);
    expect(wholeCalls[0]!.text).toMatch(/Here is the template\.\.\n1\. ; 2\. ; 3\. ; 4\. \.$/);
    expect(wholeCalls[1]!.text).toBe(
      "\n                        prompt1: [yes] a\n                        prompt2: The runners race and Team A wins.\n                        ",
    );
    // Plot 2 gets the VLM's answer too: complex_plot.py's loop keeps it apart from the judge's answers.
    expect(wholeCalls[2]!.text).toBe(
      "\n                        prompt1: [no] b\n                        prompt2: The runners race and Team A wins.\n                        ",
    );
  });

  it("Complex_Landscape: described, summarised into five plots, then plots in order", async () => {
    const run = await judged([
      {
        model: "GenA",
        dimension: "Complex_Landscape",
        prompt: "A forest at dawn",
        auxiliaryInfo: ["[yes] mist", "[yes] dew", "[yes] path", "[no] river", "[yes] sky"],
      },
    ]);
    expect(value(run.summaries[0]!, "Complex_Landscape")).toBeCloseTo(3 / 5, 12);
    const calls = await callsOf(run.run.id);
    expect(calls.map((c) => (c.frameIds.length ? "vlm" : "text"))).toEqual([
      "vlm",
      "text",
      "text",
      "text",
      "text",
      "text",
    ]);
    // The summariser's system prompt went as a turn before the text: the stub answered as the summariser, in plots.
    const summary = await prisma.stepResult.findFirstOrThrow({
      where: { runId: run.run.id, stepId: "complex_landscape_summarize" },
    });
    expect((summary.output as { text: string }).text).toMatch(/^1\. .*\n2\. .*\n3\. .*\n4\. .*\n5\. /);
    expect(calls[1]!.text).toMatch(/\n {16}template: 1\. ; 2\. ; 3\. ; 4\. ; 5\. \.\n {16}$/);
  });

  it("Complex_Landscape: a summary with no numbered list goes whole to plot 1, then each plot gets the previous judge's answer (VBench's loop reuses `response`); the corrected variant sends the summary each time", async () => {
    const SUMMARY = "Mist hangs over a path through the forest as the sun rises.";
    const spec = {
      model: "GenA",
      dimension: "Complex_Landscape",
      prompt: "A forest at dawn",
      auxiliaryInfo: ["[yes] mist", "[yes] dew", "[yes] path", "[no] river", "[yes] sky"],
    };
    const judgeCalls = async (runId: string) => (await callsOf(runId)).filter((c) => c.text.includes("prompt1: "));
    const prompt2 = (text: string) => /prompt2: ([^\n]*)\n/.exec(text)?.[1];

    stub.addFault({ fault: { kind: "content", content: SUMMARY }, match: "video_caption:", times: 1 });
    const faithful = await judged([spec]);
    expect(value(faithful.summaries[0]!, "Complex_Landscape")).toBeCloseTo(3 / 5, 12);
    const faithfulCalls = await judgeCalls(faithful.run.id);
    expect(faithfulCalls).toHaveLength(4);
    expect(faithfulCalls[0]!.text).toBe(
      `\n                        prompt1: [yes] mist\n                        prompt2: ${SUMMARY}\n                        `,
    );
    const answers = await prisma.stepResult.findMany({
      where: {
        runId: faithful.run.id,
        stepId: { in: ["complex_landscape_judge1", "complex_landscape_judge2", "complex_landscape_judge3"] },
      },
      orderBy: { stepId: "asc" },
    });
    const answerTexts = answers.map((a) => (a.output as { text: string }).text);
    expect(answerTexts).toHaveLength(3);
    expect(faithfulCalls.slice(1).map((c) => prompt2(c.text))).toEqual(answerTexts);
    expect(answerTexts[0]).not.toBe(SUMMARY);

    stub.addFault({ fault: { kind: "content", content: SUMMARY }, match: "video_caption:", times: 1 });
    const corrected = await judged([spec], { variant: "corrected" });
    expect(value(corrected.summaries[0]!, "Complex_Landscape")).toBeCloseTo(3 / 5, 12);
    expect((await judgeCalls(corrected.run.id)).map((c) => prompt2(c.text))).toEqual([
      SUMMARY,
      SUMMARY,
      SUMMARY,
      SUMMARY,
    ]);
  });

  it("Motion_Order_Understanding: an order with no '2.' is -1; both actions judged with the few-shot exchanges; more than 90% at -1 scores 0", async () => {
    stub.addFault({
      fault: { kind: "content", content: "The person sits down." },
      match: "Return the action order in video",
      times: 1,
    });
    stub.addFault({
      fault: { kind: "content", content: "1. The person is sitting. 2. The person gets up and starts sweeping." },
      match: "Return the action order in video",
      times: 1,
    });
    const run = await judged([
      {
        model: "GenA",
        dimension: "Motion_Order_Understanding",
        prompt: "Sits then sweeps",
        auxiliaryInfo: ["[yes] sitting", "[yes] sweeping"],
      },
      {
        model: "GenA",
        dimension: "Motion_Order_Understanding",
        prompt: "Sits then sweeps again",
        auxiliaryInfo: ["[yes] sitting", "[yes] sweeping"],
      },
    ]);
    const values = run.summaries.map((s) => value(s, "Motion_Order_Understanding")).sort();
    expect(values).toEqual([1, "excluded"]);
    const judgeCalls = (await callsOf(run.run.id)).filter((c) => c.frameIds.length === 0);
    expect(judgeCalls).toHaveLength(2);
    expect(judgeCalls.map((c) => c.text).sort()).toEqual([
      "\n                    prompt1: [yes] sitting\n                    prompt2: 1. The person is sitting. \n                ",
      "\n                    prompt1: [yes] sweeping\n                    prompt2:  The person gets up and starts sweeping.\n                ",
    ]);
  });

  it("Motion_Order_Understanding: with every video at -1 the score is 0 (more than 90%), not undefined", async () => {
    stub.addFault({
      fault: { kind: "content", content: "The person sits down." },
      match: "Return the action order in video",
      times: 1,
    });
    const { projectId, run } = await judged([
      {
        model: "GenA",
        dimension: "Motion_Order_Understanding",
        prompt: "Sits then sweeps",
        auxiliaryInfo: ["[yes] sitting", "[yes] sweeping"],
      },
    ]);
    const results = await vbench2RunResults(prisma, projectId, run.id);
    expect(results.dimensions.find((d) => d.dimension === "Motion_Order_Understanding")).toMatchObject({
      score: 0,
      n: 0,
      excluded: 1,
    });
  });

  it("Human_Interaction: the interaction judged against the prompt and the people counted, by the text endpoint when one is given", async () => {
    stub.addFault({
      fault: { kind: "content", content: "Two people stand together." },
      match: "Describe the video in details.",
      times: 1,
    });
    const { projectId, videoIds } = await vbench2Project(prisma, owner, [
      { model: "GenA", dimension: "Human_Interaction", prompt: "[yes] One person hands a cup of water to another." },
    ]);
    const suffix = projectId.slice(-8);
    const vlm = await endpoint(projectId, "VLM", `stub-vision-${suffix}`);
    const text = await endpoint(projectId, "Text LLM", `stub-text-${suffix}`);
    const run = await start(projectId, { pipeline: "vbench2", endpointId: vlm, settings: { textEndpointId: text } });
    const summary = (await prisma.runVideo.findFirstOrThrow({ where: { runId: run.id, videoId: videoIds[0]! } }))
      .summary as unknown as Vbench2VideoSummary;
    expect(value(summary, "Human_Interaction")).toBe(1);
    const calls = await callsOf(run.id);
    expect(calls.filter((c) => c.frameIds.length === 0).map((c) => c.model)).toEqual([
      `stub-text-${suffix}`,
      `stub-text-${suffix}`,
    ]);
    expect(calls.filter((c) => c.frameIds.length > 0).map((c) => c.model)).toEqual([
      `stub-vision-${suffix}`,
      `stub-vision-${suffix}`,
    ]);
  });

  it("all-yes dimensions (Dynamic_Attribute, Motion_Rationality): 1 only when every question is yes; a run limited to one dimension asks nothing else", async () => {
    const run = await judged(
      [
        {
          model: "GenA",
          dimension: "Dynamic_Attribute",
          prompt: "Leaves turn green",
          auxiliaryInfo: ["[yes] red first?", "[yes] green last?", "[yes] change?"],
        },
        {
          model: "GenA",
          dimension: "Dynamic_Attribute",
          prompt: "Leaves turn blue",
          auxiliaryInfo: ["[yes] red first?", "[no] blue last?", "[yes] change?"],
        },
        {
          model: "GenA",
          dimension: "Motion_Rationality",
          prompt: "Slurping noodles",
          auxiliaryInfo: ["[yes] a", "[yes] b", "[yes] c", "[yes] d"],
        },
      ],
      { dimensions: ["Dynamic_Attribute"] },
    );
    expect(run.summaries.map((s) => s.dimensions.Dynamic_Attribute?.value ?? null)).toEqual([1, 0, null]);
    expect(run.summaries[2]!.dimensions).toEqual({});
    expect(await callsOf(run.run.id)).toHaveLength(6);
  });
});
