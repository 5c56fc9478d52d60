import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// An lmms-eval log_samples file imported as an external QA run on the QA page: a clip and a question set go in
// through the Import page; the harness file's Check (a dry run) lists its bad line (a video the set has no
// question about) and stores nothing; the fixed file is checked and imported, and the accuracy table shows
// the external run: 2 right of 3 (q3's answer "The answer is A." is wrong).
const V0 = "A red ball rolls down a ramp";
let root: string;

const sample = (
  docId: number,
  questionId: string,
  video: string,
  question: string,
  options: string[],
  answer: string,
  said: string,
) =>
  JSON.stringify({
    doc_id: docId,
    doc: {
      video_id: "001",
      duration: "short",
      videoID: video,
      question_id: questionId,
      task_type: "Perception",
      question,
      options,
      answer,
    },
    target: answer,
    arguments: [["Select the best answer.", "{}", docId, 0, "videomme", "test"]],
    resps: [[said]],
    filtered_resps: [said],
    videomme_perception_score: { question_id: questionId, pred_answer: said.slice(0, 1), answer },
  });

test.beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-harness-"));
  execFileSync("ffmpeg", [
    "-loglevel",
    "error",
    "-y",
    "-f",
    "lavfi",
    "-i",
    "testsrc2=size=320x240:rate=24",
    "-t",
    "1",
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    path.join(root, `${V0}-0.mp4`),
  ]);
  const questions = [
    {
      id: "q1",
      video: `${V0}-0.mp4`,
      question: "Where does the ball roll?",
      format: "mc",
      options: { A: "Down the ramp.", B: "Up.", C: "Nowhere." },
      answer: "A",
    },
    {
      id: "q2",
      video: `${V0}-0.mp4`,
      question: "What colour is the ball?",
      format: "mc",
      options: { A: "Blue.", B: "Red." },
      answer: "B",
    },
    {
      id: "q3",
      video: `${V0}-0.mp4`,
      question: "What happens at the end?",
      format: "mc",
      options: { A: "It flies.", B: "It stops." },
      answer: "B",
    },
  ];
  fs.writeFileSync(path.join(root, "questions.jsonl"), `${questions.map((q) => JSON.stringify(q)).join("\n")}\n`);
  const good = [
    sample(0, "q1", `${V0}-0`, "Where does the ball roll?", ["A. Down the ramp.", "B. Up.", "C. Nowhere."], "A", "A"),
    sample(1, "q2", `${V0}-0`, "What colour is the ball?", ["A. Blue.", "B. Red."], "B", "B. Red."),
    sample(2, "q3", `${V0}-0`, "What happens at the end?", ["A. It flies.", "B. It stops."], "B", "The answer is A."),
  ];
  fs.writeFileSync(path.join(root, "samples_videomme_2026-11-23T12-00-00.jsonl"), `${good.join("\n")}\n`);
  const bad = [
    good[0],
    sample(1, "q2", "Some other clip", "What colour is the ball?", ["A. Blue.", "B. Red."], "B", "B"),
  ];
  fs.writeFileSync(path.join(root, "samples_bad.jsonl"), `${bad.join("\n")}\n`);
});

test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test("imports an lmms-eval samples file as an external QA run: the check lists the bad line, then the accuracy table shows the run", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const owner = await ownerWithProject("harness");
  const projectId = owner.projectId;
  await signIn(page, owner.email, owner.password);

  await page.goto(`/projects/${projectId}/import`);
  await page
    .getByTestId("file-input")
    .setInputFiles([path.join(root, `${V0}-0.mp4`), path.join(root, "questions.jsonl")]);
  await page.getByRole("button", { name: "Start import" }).click();
  await expect(page.locator(`[data-testid="import-item"][data-path="${V0}-0.mp4"]`)).toHaveAttribute(
    "data-state",
    "done",
    { timeout: 60_000 },
  );
  await page.getByRole("button", { name: "Check question sets" }).click();
  await expect(page.getByTestId("question-file")).toHaveAttribute("data-state", "checked");
  await page.getByRole("button", { name: "Import checked question sets" }).click();
  await expect(page.getByTestId("question-file")).toHaveAttribute("data-state", "imported");

  await page.goto(`/projects/${projectId}/qa`);
  const panel = page.getByTestId("harness-import");
  await panel.getByLabel("Model").fill("llava-video-7b");
  await panel.getByLabel("File").setInputFiles(path.join(root, "samples_bad.jsonl"));
  await panel.getByRole("button", { name: "Check file" }).click();
  await expect(panel.getByTestId("harness-import-errors")).toContainText(
    'Line 2: unknown video "Some other clip": no question of the set is about it',
  );
  await expect(panel.getByRole("button", { name: "Import as external run" })).toBeDisabled();

  await panel.getByLabel("File").setInputFiles(path.join(root, "samples_videomme_2026-11-23T12-00-00.jsonl"));
  await panel.getByRole("button", { name: "Check file" }).click();
  await expect(panel.getByTestId("harness-import-result")).toContainText(
    "Would import 3 readable rows: 2 correct, 1 wrong, 0 undecided.",
  );
  await panel.getByRole("button", { name: "Import as external run" }).click();
  await expect(panel.getByTestId("harness-import-result")).toContainText("Imported 3 readable rows");

  const row = page.getByTestId("qa-accuracy-row").filter({ hasText: "llava-video-7b · external (lmms-eval)" });
  await expect(row).toHaveCount(1, { timeout: 15_000 });
  await expect(row).toContainText("2 · 1 · 0");
});
