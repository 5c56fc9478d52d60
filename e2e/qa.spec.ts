import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";

// Video QA in the browser: generated clips and a question set (multiple choice and open) dropped on the Import
// page (checked by a dry run, then imported), the uniform frames at a quarter of each clip's area extracted on
// Extract pending, two simulated models run at 8 frames against the stub LLM (a test tool) with a third stub
// endpoint judging, one of them also without frames, then the accuracy table and one question's page. The
// numbers follow the stub's rules (lib/tasks/qa/stub-rules.ts): a model that sees picks the option sharing
// the most words with the question (right on q1 and q3, wrong on q2, whose distractor echoes the question); the
// open answer restates the question, whose words the reference shares, so the judge says it is right. Then the
// owner overrides that judge decision on the question's page, a reviewer marks the same answer in a blind queue
// with the keyboard, and the agreement report filtered to the run compares both with the judge.
const V0 = "A red ball rolls down a ramp";
const V1 = "A glass falls off a table";
let root: string;
let files: string[];

test.beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-qa-"));
  const make = (name: string, source: string) =>
    execFileSync("ffmpeg", [
      "-loglevel",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      source,
      "-t",
      "2",
      "-c:v",
      "libx264",
      "-pix_fmt",
      "yuv420p",
      "-movflags",
      "+faststart",
      path.join(root, name),
    ]);
  make(`${V0}-0.mp4`, "testsrc2=size=320x240:rate=24");
  make(`${V1}-0.mp4`, "mandelbrot=size=320x240:rate=24");
  const questions = [
    {
      id: "q1",
      video: `${V0}-0.mp4`,
      question: "Where does the ball roll?",
      format: "mc",
      options: { A: "The ball rolls down the ramp.", B: "It flies away.", C: "It melts." },
      answer: "A",
      category: "Step Sequencing",
      granularity: "coarse",
    },
    {
      id: "q2",
      video: `${V0}-0.mp4`,
      question: "What colour is the ramp under the ball?",
      format: "mc",
      options: { A: "Blue.", B: "The ramp under the ball is green.", C: "Red." },
      answer: "C",
      category: "Object Attribute Recognition",
      granularity: "fine",
    },
    {
      id: "q3",
      video: `${V1}-0.mp4`,
      question: "What happens after the glass falls?",
      format: "mc",
      options: { A: "Nothing moves.", B: "The glass falls and breaks on the floor." },
      answer: "B",
      category: "Future Step Prediction",
      granularity: "coarse",
    },
    {
      id: "q4",
      video: `${V1}-0.mp4`,
      question: "What does the glass do at the table?",
      format: "open",
      answer: "The glass falls off the table.",
      category: "Step Sequencing",
      granularity: "coarse",
    },
  ];
  fs.writeFileSync(path.join(root, "questions.jsonl"), `${questions.map((q) => JSON.stringify(q)).join("\n")}\n`);
  // A question whose answer letter is not among its options: its check names the line, and nothing of it is stored.
  fs.writeFileSync(
    path.join(root, "broken-questions.jsonl"),
    `${JSON.stringify(questions[0])}\n${JSON.stringify({ ...questions[1], id: "q9", answer: "D" })}\n`,
  );
  files = fs.readdirSync(root).map((name) => path.join(root, name));
});

test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test("imports a question set with the videos, runs two simulated models and a text-only baseline, shows the accuracy table and a question's page, overrides a judge decision and shows agreement", async ({
  page,
}) => {
  test.setTimeout(300_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const stub = await startStubLlm({ latencyMs: 5 });
  try {
    const owner = await ownerWithProject("qa");
    const projectId = owner.projectId;
    await signIn(page, owner.email, owner.password);

    // 1. Videos and question sets in one drop; the question sets are sorted out by their content.
    await page.goto(`/projects/${projectId}/import`);
    await page.getByTestId("file-input").setInputFiles(files);
    const questionFile = (name: string) => page.locator(`[data-testid="question-file"][data-path="${name}"]`);
    await expect(page.getByTestId("question-file")).toHaveCount(2);
    await expect(page.getByTestId("import-item")).toHaveCount(2);
    await page.getByRole("button", { name: "Start import" }).click();
    for (const name of [`${V0}-0.mp4`, `${V1}-0.mp4`])
      await expect(page.locator(`[data-testid="import-item"][data-path="${name}"]`)).toHaveAttribute(
        "data-state",
        "done",
        { timeout: 60_000 },
      );

    // 2. The dry run, then the import of the file whose check passed.
    await page.getByRole("button", { name: "Check question sets" }).click();
    await expect(questionFile("questions.jsonl")).toHaveAttribute("data-state", "checked");
    await expect(questionFile("questions.jsonl").getByTestId("question-file-summary")).toContainText(
      "Would create questions.jsonl: 4 questions over 2 videos · mc 3, open 1",
    );
    await expect(questionFile("broken-questions.jsonl")).toHaveAttribute("data-state", "invalid");
    await expect(questionFile("broken-questions.jsonl").getByTestId("question-file-errors")).toContainText(
      "line 2: answer: D is not among the options (A, B, C)",
    );
    await page.getByRole("button", { name: "Import checked question sets" }).click();
    await expect(questionFile("questions.jsonl")).toHaveAttribute("data-state", "imported");
    await expect(questionFile("questions.jsonl").getByTestId("question-file-summary")).toContainText(
      "Created questions.jsonl",
    );

    // 3. Eight uniform frames at a quarter of each clip's area (320×240 → longest side 160).
    await page.goto(`/projects/${projectId}/pending?uniform=8&resize=quarter`);
    await expect(page.getByTestId("pending-item")).toHaveCount(2);
    await expect(page.getByTestId("pending-max-side").first()).toHaveText("longest side 160 px");
    await page.getByRole("button", { name: "Extract frames for 2 videos" }).click();
    await expect(page.locator('[data-testid="pending-item"][data-state="done"]')).toHaveCount(2, { timeout: 60_000 });
    await page.reload();
    await expect(
      page.getByText("Every video with questions has a uniform set of 8 frames at the planned size."),
    ).toBeVisible();

    // 4. Three stub endpoints: a model that sees, one that guesses, and the judge.
    await page.goto(`/projects/${projectId}/judge`);
    for (const [name, model] of [
      ["Vision (simulated)", "stub-vision"],
      ["Guesser (simulated)", "stub-guess"],
      ["Judge (simulated)", "stub-judge"],
    ]) {
      await page.getByLabel("Name").fill(name!);
      await page.getByLabel("Base URL").fill(stub.baseURL);
      await page.getByLabel("Model", { exact: true }).fill(model!);
      await page.getByRole("button", { name: "Add endpoint" }).click();
      await expect(page.getByTestId("endpoint-list")).toContainText(name!);
    }
    await page.getByTestId("run-pipeline").selectOption("qa");
    await expect(page.getByTestId("run-question-set")).toContainText("questions.jsonl (4)");
    await page.getByTestId("run-qa-judge").selectOption({ label: "Judge (simulated) (stub-judge)" });
    for (const [model, baseline] of [
      ["Vision (simulated) (stub-vision)", true],
      ["Guesser (simulated) (stub-guess)", false],
    ] as const) {
      await page.getByTestId("run-endpoint").selectOption({ label: model });
      await page.getByTestId("run-qa-text-only").setChecked(baseline);
      await page.getByRole("button", { name: "Start run" }).click();
      await expect(page.getByTestId("run-started")).toContainText("Started on 2 videos (4 questions)");
      const run = page.getByTestId("run").first();
      await expect(run).toContainText(model.replace(/ \(stub-\w+\)$/, ""));
      await expect(run.getByTestId("run-status")).toHaveText("done", { timeout: 60_000 });
    }

    // 5. The accuracy table: the model that sees is right on 3 of 4 (mc 2 of 3, open 1 of 1); the baseline beside it.
    await page.goto(`/projects/${projectId}/qa`);
    await expect(page.getByTestId("qa-runs").locator('input[type="checkbox"]')).toHaveCount(2);
    const rowsByFormat = page.getByTestId("qa-accuracy-row");
    await expect(rowsByFormat).toHaveCount(4);
    const visionRow = (format: string) =>
      page.locator(`[data-testid="qa-accuracy-row"][data-format="${format}"]`).first();
    await expect(visionRow("mc").getByTestId("qa-accuracy-cell-value")).toHaveText("66.7%");
    await expect(visionRow("mc").getByTestId("qa-accuracy-cell-n")).toHaveText("n=3");
    await expect(visionRow("open").getByTestId("qa-accuracy-cell-value")).toHaveText("100.0%");
    await expect(visionRow("mc").getByTestId("qa-text-only-cell-n")).toHaveText("n=3");
    await page.getByTestId("qa-by").selectOption("all");
    await page.getByRole("button", { name: "Apply" }).first().click();
    await expect(page.getByTestId("qa-accuracy-row")).toHaveCount(2);
    await expect(page.getByTestId("qa-accuracy-row").first().getByTestId("qa-accuracy-cell")).toContainText("75.0%");
    await expect(page.getByTestId("qa-accuracy-row").first().getByTestId("qa-accuracy-cell")).toContainText("n=4");
    await expect(page.getByTestId("qa-accuracy-row").nth(1)).toContainText("no baseline");
    // The heat map and the pairwise test on the four questions both decided.
    await expect(
      page
        .getByTestId("qa-heatmap")
        .locator('[data-testid="qa-heat-cell"][data-category="Object Attribute Recognition"]')
        .first(),
    ).toContainText("0.0%");
    await expect(page.getByTestId("qa-comparison")).toHaveCount(1);
    await expect(page.getByTestId("qa-comparison")).toContainText(/exact binomial/);

    // 6. One question's page: the frames the model saw, the options, its raw answer and the letter FrameJury read.
    const q2 = page.locator('[data-testid="qa-question-row"][data-external-id="q2"]');
    await expect(q2).toHaveAttribute("data-outcome", "wrong");
    await q2.getByTestId("question-link").click();
    await expect(page.getByTestId("question-text")).toHaveText("What colour is the ramp under the ball?");
    await expect(page.getByTestId("question-option")).toHaveCount(3);
    await expect(page.locator('[data-testid="question-option"][data-correct="true"]')).toHaveAttribute(
      "data-letter",
      "C",
    );
    const vision = page.locator('[data-testid="qa-result"][data-model="stub-vision"]');
    await expect(vision.getByTestId("qa-frames").locator("img")).toHaveCount(8);
    await expect(vision.getByTestId("qa-frames")).toContainText("160×120");
    await expect(vision.getByTestId("qa-with-frames-outcome")).toHaveText("wrong");
    await expect(vision.getByTestId("qa-with-frames-letter")).toContainText("letter B");
    await expect(vision.getByTestId("qa-with-frames-raw-answer")).toContainText("B");
    await expect(vision.getByTestId("qa-with-frames-reason")).toContainText("the correct option is C");
    // A letter read deterministically needs no review, but may be overridden.
    await expect(vision.getByTestId("qa-review-not-needed")).toBeVisible();
    await expect(vision.getByTestId("qa-review-open")).toHaveText("Override");
    await expect(vision.getByTestId("qa-text-only-raw-answer")).toContainText("Best_option");
    await expect(
      page.locator('[data-testid="qa-result"][data-model="stub-guess"]').getByTestId("qa-text-only-outcome"),
    ).toHaveCount(0);

    // The open question: decided by the judge, with its reason.
    await page.goto(`/projects/${projectId}/qa?questionFormat=open`);
    await page.locator('[data-testid="qa-question-row"][data-external-id="q4"]').getByTestId("question-link").click();
    await expect(page.getByTestId("question-reference")).toContainText(
      "Reference answer The glass falls off the table.",
    );
    const open = page.locator('[data-testid="qa-result"][data-model="stub-vision"]');
    await expect(open.getByTestId("qa-with-frames-judge")).toContainText("the judge said Yes");
    await expect(open.getByTestId("qa-with-frames-reason")).toContainText("Simulated");
    const visionRunId = (await open.getAttribute("data-run"))!;

    // 7. The owner overrides the judge's decision on this model's answer; the judge's stays beside it.
    const reviews = open.getByTestId("qa-answer-reviews");
    await expect(reviews.getByTestId("value-judge")).toContainText("correct");
    await reviews.getByTestId("qa-review-open").click();
    await reviews.getByLabel("Your value").selectOption("0");
    await reviews.getByLabel("Note").fill("It never says where the glass ends up.");
    await reviews.getByRole("button", { name: "Save" }).click();
    await expect(reviews.getByTestId("value-you")).toContainText("wrong");
    await expect(reviews.getByTestId("value-judge")).toContainText("correct");
    await expect(reviews.getByTestId("history-entry")).toHaveCount(1);
    await expect(reviews.getByTestId("history-entry")).toContainText("It never says where the glass ends up.");
    await expect(open.getByTestId("qa-with-frames-outcome")).toHaveText("correct");
    // The other model's answer to the same question is judged on its own.
    await expect(
      page.locator('[data-testid="qa-result"][data-model="stub-guess"]').getByTestId("value-you"),
    ).toHaveCount(0);

    // 8. A blind queue over the answers the judge decided in the seeing model's run (only the open q4).
    await page.goto(`/projects/${projectId}/queues/new?runId=${visionRunId}`);
    await page.getByLabel("Name").fill("open answers");
    await page.getByLabel("Judge run").selectOption(visionRunId);
    await expect(page.getByTestId("queue-answers")).toBeVisible();
    await page.getByLabel("Question format").selectOption("open");
    await page.getByRole("button", { name: "Create queue" }).click();
    await expect(page.getByTestId("queue-name")).toHaveText("open answers");
    await expect(
      page.getByText("each answer's correctness (the answers the judge decided) · format open"),
    ).toBeVisible();
    const queueUrl = page.url();
    const reviewer = { email: `qa-reviewer-${Date.now()}@example.test`, password: "reviewer-password-1" };
    await cli("create-user", "--email", reviewer.email, "--password", reviewer.password);
    await cli("add-member", "--project", projectId, "--email", reviewer.email, "--role", "reviewer");
    await page.context().clearCookies();
    await signIn(page, reviewer.email, reviewer.password);
    await page.goto(queueUrl);
    await page.getByTestId("start-reviewing").click();
    await expect(page.getByTestId("review-answer-question")).toHaveText("What does the glass do at the table?");
    await expect(page.getByTestId("review-answer-reference")).toContainText("The glass falls off the table.");
    await expect(page.getByTestId("review-answer-raw")).not.toBeEmpty();
    await expect(page.getByTestId("review-answer-withheld")).toBeVisible();
    await expect(page.getByTestId("judge-hidden")).toBeVisible();
    await page.getByTestId("review-screen").focus();
    await page.keyboard.press("w");
    await expect(page.getByTestId("my-value")).toHaveText("wrong");
    await page.keyboard.press("Enter");
    await expect(page.getByText("Submitted. Nothing is left for you in this queue.")).toBeVisible();

    // 9. Agreement filtered to the run: one answer, two reviewers who both say wrong where the judge said correct.
    await page.goto(`/projects/${projectId}/agreement?runId=${visionRunId}&view=details`);
    await expect(page.getByTestId("summary-reviewed")).toHaveText("1");
    await expect(page.getByTestId("summary-accuracy")).toHaveText("0.00");
    await expect(
      page.getByTestId("breakdown-model").locator('[data-testid="breakdown-row"][data-key="stub-vision"]'),
    ).toBeVisible();
    await expect(
      page.getByTestId("breakdown-category").locator('[data-testid="breakdown-row"][data-key="Step Sequencing"]'),
    ).toBeVisible();
    await expect(
      page.getByTestId("breakdown-format").locator('[data-testid="breakdown-row"][data-key="open"]'),
    ).toBeVisible();
  } finally {
    await stub.close();
  }
});
