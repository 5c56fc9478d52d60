import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";

// Issue 15's whole flow in the browser, against the stub LLM (a test tool; its construction rules are in
// lib/tasks/construction/stub-rules.ts): step annotations for 3 videos imported on the construction page,
// generation (coarse and fine pairs per clip), the four filters and the multiple-choice transformation, then
// keyboard curation (accept one, edit one, reject one), the export, and the export made into a QA set of the same
// project on which a simulated model is run.
//
// What the stub makes of these steps (worked out from its rules; the step texts share no words across a pair):
// - v0, 3 steps with "obvious" in the 2nd: coarse "after step 2" and fine "before step 2" give the answer away and
//   the blind filter removes them; 2 kept.
// - v1, 3 steps with "unicorn" in the 3rd: fine "before step 3" names it, the hallucination filter removes it; 3 kept.
// - v2, 2 steps with "stubborn" in the 2nd: fine "before step 2" never transforms (ten attempts); 2 kept.
// 10 generated → 8 after blind → 7 after hallucination, tricky and unspecific; 6 transformed, 1 could not be.
const V = [0, 1, 2].map((v) => `A ball rolls down a ramp number ${v}-0.mp4`);
const ANNOTATIONS = [
  {
    video: V[0],
    theme: "Roll a ball",
    duration: 60,
    dataset: "hirest",
    steps: [
      { start: 0, end: 10, text: "place ball on ramp" },
      { start: 10, end: 20, text: "push obvious sphere" },
      { start: 20, end: 30, text: "watch it roll" },
    ],
  },
  {
    video: V[1],
    theme: "Cook pasta",
    duration: 60,
    dataset: "youcook2",
    steps: [
      { start: 0, end: 10, text: "boil water" },
      { start: 10, end: 20, text: "add pasta" },
      { start: 20, end: 30, text: "drain unicorn noodles" },
    ],
  },
  {
    video: V[2],
    theme: "Open a box",
    duration: 60,
    dataset: "hirest",
    steps: [
      { start: 0, end: 10, text: "open box" },
      { start: 10, end: 20, text: "lift stubborn lid" },
    ],
  },
];

test("imports annotations for 3 videos, generates, filters, transforms, curates (accept, edit, reject), exports, and runs a simulated model on the export", async ({
  page,
  request,
}) => {
  test.setTimeout(420_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const stub = await startStubLlm({ latencyMs: 2 });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-qa-construction-"));
  try {
    const owner = await ownerWithProject("qa-construction");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const actor = { userId: user.id, email: user.email, name: user.name, isAdmin: false };
    // Key frames (what construction runs take, any frame set will do) and 8 uniform frames (what a QA run takes).
    const { projectId, videoIds } = await projectWithFramedVideos(prisma, actor, {
      videoCount: 3,
      keyFrames: 3,
      uniformFrames: 8,
      name: "QA construction e2e",
    });
    // The uniform frames (64×48) are a quarter of a 128×96 video's area: the size a QA run plans by default.
    await prisma.video.updateMany({ where: { id: { in: videoIds } }, data: { width: 128, height: 96 } });
    const ownerKey = (await cli("create-api-key", "--email", owner.email)).trim();
    const api = { authorization: `Bearer ${ownerKey}` };
    // Through the app, whose server allows endpoints on this machine (the stub).
    const made = await request.post(`/api/v1/projects/${projectId}/endpoints`, {
      headers: api,
      data: {
        name: "Stub",
        baseUrl: stub.baseURL,
        model: "stub-vision",
        apiKey: null,
        maxConcurrency: 8,
        imageDetail: "low",
      },
    });
    expect(made.status()).toBe(201);
    const endpoint = (await made.json()) as { id: string };
    const annotations = path.join(dir, "steps.jsonl");
    fs.writeFileSync(annotations, `${ANNOTATIONS.map((a) => JSON.stringify(a)).join("\n")}\n`);

    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/construction`);

    // 1. Import: a dry run, then the clip set (each video is one clip: neither dataset is trimmed).
    await page.getByTestId("step-annotation-file").setInputFiles(annotations);
    await page.getByTestId("step-annotation-name").fill("Three videos");
    await page.getByTestId("step-annotation-check").click();
    await expect(page.getByTestId("step-annotation-summary")).toContainText("3 clips from 3 videos");
    await page.getByTestId("step-annotation-submit").click();
    await expect(page.getByTestId("clip-set")).toHaveCount(1);
    await expect(page.getByTestId("clip-set-datasets")).toHaveText("hirest 2 · youcook2 1");

    // 2. Generate: one run over the clips; when it is done its candidates are made.
    await page.getByTestId("generate-start").click();
    await expect(page.getByTestId("generate-panel").getByTestId("run-progress")).toHaveAttribute(
      "data-run-status",
      "done",
      { timeout: 120_000 },
    );
    await expect
      .poll(() => prisma.item.count({ where: { projectId, kind: "qa_candidate" } }), { timeout: 30_000 })
      .toBe(10);
    await page.reload();
    await expect(page.getByTestId("candidate-set")).toHaveCount(1);
    const stage = (id: string, what: "kept" | "removed") =>
      page.locator(`[data-testid="funnel-stage"][data-stage="${id}"] [data-testid="funnel-${what}"]`);
    await expect(stage("generated", "kept")).toHaveText("10");

    // 3. Filter and transform.
    await page.getByTestId("construct-start").click();
    await expect(page.getByTestId("construct-panel").getByTestId("run-progress")).toHaveAttribute(
      "data-run-status",
      "done",
      { timeout: 240_000 },
    );
    await page.reload();
    await expect(stage("blind", "kept")).toHaveText("8");
    await expect(stage("blind", "removed")).toHaveText("2");
    await expect(stage("hallucination", "removed")).toHaveText("1");
    await expect(stage("unspecific", "kept")).toHaveText("7");
    await expect(page.getByTestId("transformation-counts")).toContainText(
      "transformed 6 · could not transform 1 · in progress 0",
    );
    // A removed question stays visible with the filter's reason.
    await page.getByTestId("candidate-filters").locator('select[name="fate"]').selectOption("removed");
    await page.getByTestId("candidate-filters").getByRole("button", { name: "Show" }).click();
    await expect(page.getByTestId("candidate")).toHaveCount(3);
    await expect(page.getByTestId("candidate-fate").first()).toContainText(/removed by/i);
    await page.screenshot({ path: "/tmp/qa-construction-funnel.png", fullPage: true });

    // 4. Curate the kept ones, keyboard only: accept, edit, reject.
    await page.goto(`/projects/${projectId}/curation`);
    const form = page.getByTestId("new-curation-queue");
    await form.getByTestId("curation-name").fill("First pass");
    await form.getByRole("button", { name: "Create the queue" }).click();
    const queueRow = page.getByTestId("curation-queue");
    await expect(queueRow.getByTestId("curation-counts")).toContainText("pending 7");
    await queueRow.getByRole("link", { name: "First pass" }).click();
    const screen = page.getByTestId("curation-screen");
    await expect(screen).toBeVisible();
    const first = (await screen.getAttribute("data-item-id"))!;
    await page.keyboard.press("a");
    await expect(screen).not.toHaveAttribute("data-item-id", first);
    const second = (await screen.getAttribute("data-item-id"))!;
    await page.keyboard.press("e");
    await expect(page.getByTestId("edit-question")).toBeFocused();
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.type("Which step comes next, as the annotations say?");
    await page.keyboard.press("Control+Enter");
    await expect(screen).not.toHaveAttribute("data-item-id", second);
    const third = (await screen.getAttribute("data-item-id"))!;
    await page.keyboard.press("r");
    await expect(page.getByTestId("reject-reason")).toBeFocused();
    await page.keyboard.type("Too easy from the theme.");
    await page.keyboard.press("Enter");
    await expect(screen).not.toHaveAttribute("data-item-id", third);
    await page.goto(`/projects/${projectId}/curation`);
    await expect(page.getByTestId("curation-counts")).toContainText(/accepted 2 · rejected 1 · disputed 0 · pending 4/);

    // 5. Export: the two accepted questions, open and (for the transformed ones) multiple choice, with provenance.
    const setId = (await prisma.itemSet.findFirstOrThrow({ where: { projectId, kind: "qa_candidates" } })).id;
    const exported = await request.get(`/api/v1/candidate-sets/${setId}/export?format=both`, { headers: api });
    expect(exported.status()).toBe(200);
    const records = (await exported.text())
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as {
            id: string;
            video: string;
            question: string;
            format: string;
            options?: Record<string, string>;
            answer: string;
            extra: Record<string, unknown>;
          },
      );
    const open = records.filter((r) => r.format === "open");
    expect(open).toHaveLength(2);
    expect(open.map((r) => r.question)).toContain("Which step comes next, as the annotations say?");
    for (const r of records) {
      expect(V).toContain(path.basename(r.video));
      expect(JSON.stringify(r.extra)).toContain("construction/generate-");
    }
    for (const r of records.filter((x) => x.format === "mc"))
      expect(Object.keys(r.options!)).toEqual(["A", "B", "C", "D", "E"]);

    // 6. One click makes it a question set of this project; a simulated model answers it.
    await page.goto(`/projects/${projectId}/construction`);
    const make = page.getByTestId("make-qa-set");
    await make.getByTestId("make-qa-set-project").selectOption(projectId);
    await make.getByTestId("make-qa-set-format").selectOption("both");
    await make.getByTestId("make-qa-set-name").fill("Constructed benchmark");
    await make.getByTestId("make-qa-set-submit").click();
    await expect(make.getByTestId("make-qa-set-result")).toContainText(`${records.length}`);
    const questionSet = await prisma.itemSet.findFirstOrThrow({
      where: { projectId, kind: "questions", name: "Constructed benchmark" },
    });
    expect(questionSet.itemCount).toBe(records.length);
    const run = await request.post(`/api/v1/projects/${projectId}/runs`, {
      headers: api,
      data: { pipeline: "qa", endpointId: endpoint.id, questionSetId: questionSet.id, settings: { frames: 8 } },
    });
    expect(run.status(), await run.text()).toBe(201);
    const runId = ((await run.json()) as { id: string }).id;
    await expect
      .poll(async () => (await prisma.judgeRun.findUniqueOrThrow({ where: { id: runId } })).status, {
        timeout: 120_000,
      })
      .toBe("done");
    expect(await prisma.runItem.count({ where: { runId } })).toBe(records.length);
    await page.goto(`/projects/${projectId}/qa`);
    // The accuracy table has the run's answers by format: the two open questions and the transformed ones as mc.
    const mc = records.filter((r) => r.format === "mc").length;
    await expect(page.getByRole("row", { name: /stub-vision · 8 frames\s+open-ended/ })).toContainText("n=2");
    if (mc > 0)
      await expect(page.getByRole("row", { name: /stub-vision · 8 frames\s+multiple choice/ })).toContainText(
        `n=${mc}`,
      );
    await page.screenshot({ path: "/tmp/qa-construction-qa.png", fullPage: true });
  } finally {
    await stub.close();
    fs.rmSync(dir, { recursive: true, force: true });
    await prisma.$disconnect();
  }
});
