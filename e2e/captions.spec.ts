import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";

// Caption judging in the browser: generated clips, an AnyCapEval reference JSONL and two models' outputs
// dropped on the Import page (checked by a dry run, then imported), the uniform frames extracted on Extract
// pending, both caption judges run against the stub LLM (a test tool), then the leaderboard and one caption's
// detail with its rule flags. The numbers follow the stub's rules (testkit/llm-stub): style 3 when the output's
// word count is within ±10% of the reference's, else 2; a key point is hit when it shares a content word.
const V0 = "A red ball rolls down a ramp";
const V1 = "A glass falls off a table";
let root: string;
let files: string[];

test.beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-captions-"));
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
  const line = (
    id: number,
    video: string,
    type: string,
    instruction: string,
    reference: string,
    keyPoints?: string[],
  ) =>
    JSON.stringify({
      id,
      video,
      conversations: [
        { from: "human", value: `<video>\n${instruction}` },
        { from: "gpt", value: reference },
      ],
      restriction: [type, ""],
      ...(keyPoints ? { key_point: keyPoints } : {}),
    });
  fs.writeFileSync(
    path.join(root, "anycap-reference.jsonl"),
    [
      // 13 words.
      line(
        1,
        `${V0}-0.mp4`,
        "brief",
        "Describe the video briefly.",
        "A red ball rolls down a wooden ramp and stops at the bottom.",
      ),
      // 18 words.
      line(
        2,
        `${V1}-0.mp4`,
        "detail",
        "Describe the video in detail.",
        "A clear glass slides off the edge of a wooden table and shatters on the tiled floor below.",
      ),
      line(
        3,
        `${V0}-0.mp4`,
        "action",
        "Describe the actions in the video.",
        "The ball rolls down the ramp and stops.",
        ["the ball rolls down the ramp", "the ball stops at the bottom"],
      ),
    ].join("\n") + "\n",
  );
  fs.writeFileSync(
    path.join(root, "alpha_outputs.jsonl"),
    [
      // 13 words against 13: 3, no rule fails.
      { id: 1, output: "A red ball rolls down a wooden ramp and stops at the end." },
      // 3 words against 18: the stub's 2 is above the ±10% rule's cap of 1, so the judge broke the rule.
      { id: 2, output: "A glass falls." },
      // Shares "ramp" with the first key point only: 1 of 2.
      { id: 3, output: "A sphere tumbles along the ramp." },
    ]
      .map((o) => JSON.stringify(o))
      .join("\n") + "\n",
  );
  fs.writeFileSync(
    path.join(root, "beta.csv"),
    [
      "id,output",
      // 2 words against 13: 2, capped to 1.
      '1,"A ball."',
      // 17 words against 18 (−5.6%): 3.
      '2,"A clear glass slides off the edge of a wooden table and shatters on the tiled floor."',
      // Both key points: 2 of 2.
      '3,"The ball rolls down the ramp and stops at the bottom."',
    ].join("\n") + "\n",
  );
  // An id with no reference: its dry run names the line, and nothing of it is stored.
  fs.writeFileSync(
    path.join(root, "gamma_outputs.jsonl"),
    `${JSON.stringify({ id: 1, output: "A ball." })}\n${JSON.stringify({ id: 99, output: "Nothing." })}\n`,
  );
  files = fs.readdirSync(root).map((name) => path.join(root, name));
});

test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test("imports captions with the videos, runs both caption judges and shows the leaderboard and a caption's rule flags", async ({
  page,
}) => {
  test.setTimeout(240_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const stub = await startStubLlm({ latencyMs: 5 });
  try {
    const owner = await ownerWithProject("captions");
    const projectId = owner.projectId;
    await signIn(page, owner.email, owner.password);

    // 1. Videos and caption files in one drop; the caption files are sorted out by their content.
    await page.goto(`/projects/${projectId}/import`);
    await page.getByTestId("file-input").setInputFiles(files);
    const captionFile = (name: string) => page.locator(`[data-testid="caption-file"][data-path="${name}"]`);
    await expect(page.getByTestId("caption-file")).toHaveCount(4);
    await expect(captionFile("alpha_outputs.jsonl").getByTestId("caption-model")).toHaveValue("alpha");
    await expect(captionFile("beta.csv").getByTestId("caption-model")).toHaveValue("beta");
    await expect(page.getByTestId("import-item")).toHaveCount(2);
    await page.getByRole("button", { name: "Start import" }).click();
    for (const name of [`${V0}-0.mp4`, `${V1}-0.mp4`])
      await expect(page.locator(`[data-testid="import-item"][data-path="${name}"]`)).toHaveAttribute(
        "data-state",
        "done",
        { timeout: 60_000 },
      );

    // 2. The dry run: what the reference would create; outputs wait for their reference.
    await page.getByRole("button", { name: "Check caption files" }).click();
    await expect(captionFile("anycap-reference.jsonl")).toHaveAttribute("data-state", "checked");
    await expect(captionFile("anycap-reference.jsonl").getByTestId("caption-file-summary")).toContainText(
      "Would create anycap-reference.jsonl: 3 references over 2 videos",
    );
    await expect(captionFile("beta.csv").getByTestId("caption-file-message")).toContainText(
      "Import its reference set first",
    );
    await page.getByRole("button", { name: "Import checked files" }).click();
    await expect(captionFile("anycap-reference.jsonl")).toHaveAttribute("data-state", "imported");
    // Now the outputs are checked against the stored reference; gamma's unknown id is an error with its line.
    await expect(captionFile("alpha_outputs.jsonl")).toHaveAttribute("data-state", "checked");
    await expect(captionFile("beta.csv").getByTestId("caption-file-summary")).toContainText("Would create");
    await expect(captionFile("gamma_outputs.jsonl")).toHaveAttribute("data-state", "invalid");
    await expect(captionFile("gamma_outputs.jsonl").getByTestId("caption-file-errors")).toContainText("line 2:");
    await page.getByRole("button", { name: "Import checked files" }).click();
    await expect(captionFile("alpha_outputs.jsonl")).toHaveAttribute("data-state", "imported");
    await expect(captionFile("beta.csv")).toHaveAttribute("data-state", "imported");
    await expect(captionFile("beta.csv").getByTestId("caption-file-summary")).toContainText("Created");
    await expect(captionFile("gamma_outputs.jsonl")).toHaveAttribute("data-state", "invalid");

    // 3. The uniform frames the caption judges see.
    await page.goto(`/projects/${projectId}/pending?uniform=8`);
    await expect(page.getByTestId("pending-item")).toHaveCount(2);
    await page.getByRole("button", { name: "Extract frames for 2 videos" }).click();
    await expect(page.locator('[data-testid="pending-item"][data-state="done"]')).toHaveCount(2, { timeout: 60_000 });
    await page.reload();
    await expect(page.getByText("Every video with captions has a uniform set of 8 frames.")).toBeVisible();

    // 4. Both caption judges against the stub.
    await page.goto(`/projects/${projectId}/judge`);
    await page.getByLabel("Name").fill("Stub (simulated)");
    await page.getByLabel("Base URL").fill(stub.baseURL);
    await page.getByLabel("Model").fill("stub-vision");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByTestId("endpoint-list")).toContainText("Stub (simulated)");
    // Style judges the brief and detail captions (4, on both videos); content the action captions (2, on the first).
    for (const [pipeline, started, runName] of [
      ["caption_style", "Started on 2 videos (4 captions)", "Caption style"],
      ["caption_content", "Started on 1 video (2 captions)", "Caption content"],
    ] as const) {
      await page.getByTestId("run-pipeline").selectOption(pipeline);
      await expect(page.getByTestId("run-models")).toContainText("alpha");
      await page.getByRole("button", { name: "Start run" }).click();
      await expect(page.getByTestId("run-started")).toContainText(started);
      const run = page.getByTestId("run").first();
      // Runs are named by their task, endpoint and date.
      await expect(run).toContainText(runName);
      await expect(run.getByTestId("run-status")).toHaveText("done", { timeout: 60_000 });
    }

    // 5. The leaderboard, by the stub's rules: alpha brief 3 and detail 1 (capped), beta brief 1 and detail 3.
    await page.goto(`/projects/${projectId}/captions`);
    const row = (model: string, type: string) =>
      page.locator(`[data-testid="leaderboard-row"][data-model="${model}"][data-type="${type}"]`);
    await expect(row("alpha", "brief").getByTestId("lb-style-value")).toHaveText("3.00");
    await expect(row("alpha", "detail").getByTestId("lb-style-value")).toHaveText("1.00");
    await expect(row("alpha", "all").getByTestId("lb-style-value")).toHaveText("2.00");
    await expect(row("alpha", "all").getByTestId("lb-violations-value")).toHaveText("50.0%");
    await expect(row("alpha", "all").getByTestId("lb-coverage-value")).toHaveText("50.0%");
    await expect(row("beta", "all").getByTestId("lb-coverage-value")).toHaveText("100.0%");
    await expect(row("beta", "brief").getByTestId("lb-violations-value")).toHaveText("100.0%");
    await expect(row("alpha", "all").getByTestId("lb-style")).toContainText("n=2");
    await expect(page.getByTestId("caption-row")).toHaveCount(6);

    // 6. The captions where the judge broke the rule, and one of them in detail.
    await page.getByTestId("filter-flag").selectOption("judge_broke_rule");
    await page.getByTestId("filter-model").selectOption("alpha");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByTestId("caption-row")).toHaveCount(1);
    await expect(page.getByTestId("caption-row")).toHaveAttribute("data-type", "detail");
    await page.getByTestId("caption-link").click();
    await expect(page.getByTestId("caption-output")).toHaveText("A glass falls.");
    await expect(page.getByTestId("caption-reference")).toContainText("shatters on the tiled floor");
    await expect(page.getByTestId("caption-instruction")).toContainText("Describe the video in detail.");
    await expect(page.getByTestId("caption-frames").locator("img")).toHaveCount(8);
    const style = page.getByTestId("result-caption_style");
    await expect(style.getByTestId("style-raw")).toHaveText("2");
    await expect(style.getByTestId("style-cap")).toHaveText("1");
    await expect(style.getByTestId("style-after")).toHaveText("1");
    await expect(style.getByTestId("flag-broke-rule")).toBeVisible();
    await expect(style.locator('[data-testid="length-rule"][data-rule="brief_detail_10pct"]')).toHaveAttribute(
      "data-result",
      "fail",
    );
    await expect(style.locator('[data-testid="length-rule"][data-rule="brief_detail_10pct"]')).toContainText(
      "3 words, the reference 18 words",
    );
    await expect(style.getByTestId("style-reason")).not.toBeEmpty();
    // The caption type is named, its definition one hover away.
    await expect(page.locator('[data-testid="code-with-name"][data-code="detail"]').first()).toHaveAttribute(
      "title",
      /±10%/,
    );
    const captionUrl = page.url();
    const styleRunHref = await page.getByTestId("run-link-caption_style").getAttribute("href");
    const styleRunId = styleRunHref!.split("/").at(-1)!;
    // The video's page lists its captions (alpha's and beta's detail captions of the glass video).
    await page.getByRole("link", { name: `${V1}-0.mp4` }).click();
    await expect(page.getByTestId("video-caption")).toHaveCount(2);
    await expect(page.getByTestId("video-captions")).toContainText("A glass falls.");

    // 7. The owner makes a blind queue over alpha's style-judged captions.
    await page.goto(`/projects/${projectId}/queues/new?runId=${styleRunId}`);
    await page.getByLabel("Name").fill("alpha captions");
    await page.getByLabel("Judge run").selectOption(styleRunId);
    await expect(page.getByTestId("queue-captions")).toContainText("style score (0–4)");
    await page.getByLabel("Caption model").selectOption("alpha");
    await page.getByRole("button", { name: "Create queue" }).click();
    await expect(page.getByTestId("queue-name")).toHaveText("alpha captions");
    await expect(page.getByText("each caption's judge scores · model alpha")).toBeVisible();
    const queueUrl = page.url();

    // 8. A reviewer: the queue's first caption, blind; then their own style score on the detail caption's page.
    const reviewer = { email: `caption-reviewer-${Date.now()}@example.test`, password: "reviewer-password-1" };
    await cli("create-user", "--email", reviewer.email, "--password", reviewer.password);
    await cli("add-member", "--project", projectId, "--email", reviewer.email, "--role", "reviewer");
    await page.context().clearCookies();
    await signIn(page, reviewer.email, reviewer.password);
    await page.goto(queueUrl);
    await page.getByTestId("start-reviewing").click();
    // Items follow the video list's order (by path): the glass video's detail caption first.
    await expect(page.getByTestId("review-caption-model")).toHaveText("alpha");
    await expect(page.getByTestId("review-caption-output")).toHaveText("A glass falls.");
    await expect(page.getByTestId("review-caption-reference")).toContainText("shatters on the tiled floor");
    await expect(page.getByTestId("target-label")).toHaveCount(1);
    await expect(page.getByTestId("target-label")).toContainText("Style score");
    await expect(page.getByTestId("judge-hidden")).toBeVisible();
    await page.getByTestId("review-screen").focus();
    await page.keyboard.press("2");
    await expect(page.getByTestId("my-value")).toHaveText("2");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("my-count")).toHaveText("you: 1 submitted");
    // Blind: the judge's style score shows beside the reviewer's until Enter goes on to the next caption.
    await expect(page.getByTestId("reveal-summary")).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("review-caption-output")).toHaveText(
      "A red ball rolls down a wooden ramp and stops at the end.",
    );

    // The caption's page shows the queue's judgment beside the judge's; the reviewer changes it there.
    await page.goto(captionUrl);
    const target = page.getByTestId("result-caption_style").getByTestId("caption-review-target");
    await expect(target.getByTestId("value-judge")).toContainText("1");
    await expect(target.getByTestId("value-you")).toContainText("2");
    await target.getByRole("button", { name: "Change your value" }).click();
    await target.getByLabel("Your value").fill("3");
    await target.getByLabel("Note").fill("three words, but all of them right");
    await target.getByRole("button", { name: "Save" }).click();
    await expect(target.getByTestId("value-you")).toContainText("3");
    await expect(target.getByTestId("history-entry")).toHaveCount(2);
    await expect(target.getByTestId("history-entry").first()).toContainText("three words, but all of them right");

    // 9. Agreement on the style run. The reviewer still holds the ball video's caption of the blind queue, so the
    // report (computed from every video, theirs included) is withheld from them; the owner sees it whole, broken
    // down by caption type and by the caption's model.
    await page.goto(`/projects/${projectId}/agreement?runId=${styleRunId}&view=details`);
    await expect(page.getByTestId("withheld")).toContainText('is hidden while you review "alpha captions" blind:');
    await expect(page.getByTestId("breakdown-caption_type")).toHaveCount(0);
    // So are the Captions page's leaderboard and the style run's downloads: the notice in their place, no partial numbers.
    await page.goto(`/projects/${projectId}/captions?styleRunId=${styleRunId}`);
    await expect(page.getByTestId("withheld").first()).toContainText(
      /The leaderboard of these runs is hidden while you review "alpha captions" blind: \d+ items? left/,
    );
    await expect(page.getByTestId("caption-leaderboard")).toHaveCount(0);
    await expect(page.getByRole("link", { name: /Style captions CSV/ })).toHaveCount(0);
    await page.context().clearCookies();
    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/agreement?runId=${styleRunId}&view=details`);
    const byType = page.getByTestId("breakdown-caption_type");
    await expect(byType.locator('[data-testid="breakdown-row"][data-key="detail"]')).toBeVisible();
    await expect(byType.locator('[data-testid="breakdown-row"]')).toHaveCount(1);
    await expect(
      page.getByTestId("breakdown-model").locator('[data-testid="breakdown-row"][data-key="alpha"]'),
    ).toBeVisible();
  } finally {
    await stub.close();
  }
});
