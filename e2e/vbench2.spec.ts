import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { cli, ownerWithProject, signIn } from "./helpers";

// VBench-2.0 in the browser: one samples folder of two generators (samples/<generator>/<Dimension>/<prompt>-0.mp4, each
// generator named by the folder above the dimension folder) with a VBench2_full_info.json whose questions carry
// "[yes]"/"[no]" for the stub LLM (a test tool, lib/tasks/vbench2/
// stub-rules.ts); VBench's 64 uniform frames extracted on Extract pending; a run of two dimensions from the Judge
// page; the results (numbers worked out by hand below); a blind queue of the Material questions answered by a
// reviewer with the keyboard alone; the results recomputed from the reviewer's answers; the generator leaderboard.
//
// GenA: Material 1 (both questions yes), Dynamic_Attribute 1. GenB: Material 0 (question 2 no), Dynamic_Attribute 0.
// Material 50%, Dynamic_Attribute 50%; Physics = 0.5 / 4, Controllability = 0.5 / 7, total = (0.125 + 0.0714) / 5 = 3.93%.
// The reviewer answers yes to all four Material questions: people's Material 100%, total (0.25 + 0.0714) / 5 = 6.43%.
const PROMPTS = {
  genAMaterial: "Blue and yellow paint are stirred together in a bowl",
  genBMaterial: "A sheet of paper is folded in half on a table",
  genADynamic: "The leaves of a tree turn from green to red",
  genBDynamic: "A traffic light turns from red to green",
};
let root: string;

test.beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-vbench2-"));
  const make = (file: string, source: string) => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
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
      file,
    ]);
  };
  make(
    path.join(root, "samples", "GenA", "Material", `${PROMPTS.genAMaterial}-0.mp4`),
    "testsrc2=size=320x240:rate=24",
  );
  make(
    path.join(root, "samples", "GenA", "Dynamic_Attribute", `${PROMPTS.genADynamic}-0.mp4`),
    "mandelbrot=size=320x240:rate=24",
  );
  make(path.join(root, "samples", "GenB", "Material", `${PROMPTS.genBMaterial}-0.mp4`), "testsrc=size=320x240:rate=24");
  make(
    path.join(root, "samples", "GenB", "Dynamic_Attribute", `${PROMPTS.genBDynamic}-0.mp4`),
    "rgbtestsrc=size=320x240:rate=24",
  );
  const info = [
    {
      prompt_en: PROMPTS.genAMaterial,
      dimension: ["Material"],
      auxiliary_info: [
        "[yes] Do the paints visibly mix? (yes or no)",
        "[yes] Finally, is the paint green? (yes or no)",
      ],
    },
    {
      prompt_en: PROMPTS.genBMaterial,
      dimension: ["Material"],
      auxiliary_info: [
        "[yes] Is there a sheet of paper? (yes or no)",
        "[no] Finally, is the paper folded? (yes or no)",
      ],
    },
    {
      prompt_en: PROMPTS.genADynamic,
      dimension: ["Dynamic_Attribute"],
      auxiliary_info: ["[yes] Do the leaves turn red? (yes or no)"],
    },
    {
      prompt_en: PROMPTS.genBDynamic,
      dimension: ["Dynamic_Attribute"],
      auxiliary_info: ["[no] Does the light turn green? (yes or no)"],
    },
    {
      prompt_en: "A prompt no video was made for",
      dimension: ["Thermotics"],
      auxiliary_info: ["[yes] Is there ice? (yes or no)"],
    },
  ];
  fs.writeFileSync(path.join(root, "samples", "VBench2_full_info.json"), JSON.stringify(info, null, 2));
});

test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test("imports VBench-shaped folders with VBench2_full_info.json, runs two dimensions, reviews the questions blind by keyboard and opens the leaderboard", async ({
  page,
}) => {
  test.setTimeout(300_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const stub = await startStubLlm({ latencyMs: 5 });
  try {
    const owner = await ownerWithProject("vbench2");
    const projectId = owner.projectId;
    await signIn(page, owner.email, owner.password);

    // 1. The samples folder of both generators: the generators show before Start; the prompt list is stored first,
    // and every video then matches it.
    await page.goto(`/projects/${projectId}/import`);
    await page.getByTestId("folder-input").setInputFiles(path.join(root, "samples"));
    await expect(page.getByTestId("import-item").filter({ hasText: ".mp4" })).toHaveCount(4);
    await expect(page.getByTestId("import-generators")).toHaveText(
      "Generators found: GenA (2 videos), GenB (2 videos).",
    );
    await page.getByRole("button", { name: "Start import" }).click();
    await expect(
      page.locator('[data-testid="import-item"][data-state="done"]').filter({ hasText: ".mp4" }),
    ).toHaveCount(4, { timeout: 120_000 });
    const api = (route: string) => page.request.get(route).then((r) => r.json());
    const videos = (await api(`/api/v1/projects/${projectId}/videos?pageSize=10`)) as {
      videos: { id: string; relativePath: string; model: string }[];
    };
    expect(videos.videos.map((v) => v.model).sort()).toEqual(["GenA", "GenA", "GenB", "GenB"]);

    // 2. VBench's 64 uniform frames (2 s at 24 fps: 48 frames, the 64 indices repeat some).
    await page.goto(`/projects/${projectId}/pending?uniform=64&videos=all`);
    await expect(page.getByTestId("pending-item")).toHaveCount(4);
    await page.getByRole("button", { name: "Extract frames for 4 videos" }).click();
    await expect(page.locator('[data-testid="pending-item"][data-state="done"]')).toHaveCount(4, { timeout: 120_000 });

    // 3. A run of two dimensions from the Judge page.
    await page.goto(`/projects/${projectId}/judge`);
    await page.getByLabel("Name").fill("Stub VLM (simulated)");
    await page.getByLabel("Base URL").fill(stub.baseURL);
    await page.getByLabel("Model", { exact: true }).fill("stub-vision");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByTestId("endpoint-list")).toContainText("Stub VLM (simulated)");
    await page.getByTestId("run-pipeline").selectOption("vbench2");
    const dimensions = page.getByTestId("run-vbench2-dimensions");
    await dimensions.getByLabel("Material").check();
    await dimensions.getByLabel("Dynamic Attribute").check();
    await page.getByRole("button", { name: "Start run" }).click();
    await expect(page.getByTestId("run-started")).toContainText("Started on 4 videos");
    await expect(page.getByTestId("run").first().getByTestId("run-status")).toHaveText("done", { timeout: 90_000 });

    // 4. The results: the judge's scores, n, the total as cal_final_score.py computes it, each question with its answer.
    await page.goto(`/projects/${projectId}/vbench2`);
    await expect(page.getByTestId("vbench2-row-Material")).toContainText("50.00%");
    await expect(page.getByTestId("vbench2-row-Dynamic_Attribute")).toContainText("50.00%");
    await expect(page.getByTestId("vbench2-row-Thermotics")).toContainText("none (counts 0)");
    await expect(page.getByTestId("vbench2-total")).toHaveText("3.93%");
    const material = page.getByTestId("vbench2-videos-Material");
    // The dimension's own summary: its videos are collapsed under it, each with a summary of its own.
    await material.locator("summary").first().click();
    await expect(material).toContainText("[no] Finally, is the paper folded? (yes or no)");
    await expect(material).toContainText("64 frames");

    // 5. A blind queue of the Material questions, answered by a reviewer with the keyboard alone.
    const runId =
      new URL(page.url(), "http://x").searchParams.get("runId") ??
      (await page.getByTestId("vbench2-choose").locator("select[name=runId]").inputValue());
    await page.goto(`/projects/${projectId}/queues/new?runId=${runId}`);
    await page.getByLabel("Name").fill("Material questions");
    await page.getByLabel("Judge run").selectOption(runId);
    await expect(
      page.getByRole("radio", { name: /the judge.s answers \(yes \/ no\) to each of its questions/ }),
    ).toBeChecked();
    await page
      .getByTestId("queue-categories")
      .locator("label", { hasText: /material/i })
      .locator("input")
      .check();
    await page.getByRole("button", { name: "Create queue" }).click();
    await expect(page.getByTestId("queue-name")).toHaveText("Material questions");
    const queueUrl = page.url();
    const reviewer = { email: `vbench2-reviewer-${Date.now()}@example.test`, password: "reviewer-password-1" };
    await cli("create-user", "--email", reviewer.email, "--password", reviewer.password);
    await cli("add-member", "--project", projectId, "--email", reviewer.email, "--role", "reviewer");
    await page.context().clearCookies();
    await signIn(page, reviewer.email, reviewer.password);
    await page.goto(queueUrl);
    await expect(page.getByTestId("start-reviewing")).toBeFocused();
    await page.keyboard.press("s");
    const screen = page.getByTestId("review-screen");
    await expect(screen).toBeVisible();
    await expect(page.getByTestId("judge-hidden").first()).toBeVisible();
    for (let item = 0; item < 2; item++) {
      await page.keyboard.press("1");
      await page.keyboard.press("j");
      await page.keyboard.press("1");
      await page.keyboard.press("Enter");
    }
    // The last submit is saved, and the queue asked again, before this shows: on two loaded cores that has taken
    // longer than the default wait.
    await expect(page.getByText("Submitted. Nothing is left for you in this queue.")).toBeVisible({ timeout: 30_000 });

    // 6. People's values beside the judge's: every Material question yes, so Material 100% and the total 6.43%.
    await page.goto(`/projects/${projectId}/vbench2?runId=${runId}`);
    const row = page.getByTestId("vbench2-row-Material");
    await expect(row).toContainText("100.00%");
    await expect(row).toContainText("75.00% of 4 questions");

    // 7. The leaderboard: GenA first.
    await page.goto(`/projects/${projectId}/vbench2/leaderboard?runId=${runId}`);
    const rows = page.getByTestId("vbench2-leaderboard-row");
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toHaveAttribute("data-model", "GenA");
    await expect(rows.first().getByTestId("vbench2-leaderboard-total")).toContainText("7.9");
    await expect(page.getByTestId("vbench2-rankings")).toContainText("FrameJury's judge: GenA > GenB");
  } finally {
    await stub.close();
  }
});
