import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// The VBench-2.0 pages in the browser: the run form says how many videos lack VBench's 64 uniform frames and links to
// their extraction, which lists the videos at once (no endless "Loading…") and ends with a summary; the run page has a
// generator column and only the run's dimensions; the results page shows VBench's own results from the newest label
// set, each dimension's videos collapsed, filterable, with each question's frames as thumbnails.
const PROMPTS = {
  genA: "Blue and yellow paint are stirred together in a bowl",
  genB: "A sheet of paper is folded in half on a table",
};
let root: string;

test.beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-vbench2-pages-"));
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
  make(path.join(root, "GenA", "Material", `${PROMPTS.genA}-0.mp4`), "testsrc2=size=320x240:rate=24");
  make(path.join(root, "GenB", "Material", `${PROMPTS.genB}-0.mp4`), "testsrc=size=320x240:rate=24");
  const info = [
    {
      prompt_en: PROMPTS.genA,
      dimension: ["Material"],
      auxiliary_info: [
        "[yes] Do the paints visibly mix? (yes or no)",
        "[yes] Finally, is the paint green? (yes or no)",
      ],
    },
    {
      prompt_en: PROMPTS.genB,
      dimension: ["Material"],
      auxiliary_info: [
        "[yes] Is there a sheet of paper? (yes or no)",
        "[no] Finally, is the paper folded? (yes or no)",
      ],
    },
  ];
  fs.writeFileSync(path.join(root, "GenA", "VBench2_full_info.json"), JSON.stringify(info, null, 2));
});

test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test("the run form links to the 64-frame extraction; the run and results pages show generators, the run's dimensions, VBench's results and each question's frames", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(300_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const stub = await startStubLlm({ latencyMs: 5 });
  try {
    const owner = await ownerWithProject("vbench2-pages");
    const projectId = owner.projectId;
    await signIn(page, owner.email, owner.password);
    for (const generator of ["GenA", "GenB"]) {
      await page.goto(`/projects/${projectId}/import`);
      await page.getByTestId("folder-input").setInputFiles(path.join(root, generator));
      await expect(page.getByTestId("import-item").filter({ hasText: ".mp4" })).toHaveCount(1);
      await page.getByRole("button", { name: "Start import" }).click();
      await expect(
        page.locator('[data-testid="import-item"][data-state="done"]').filter({ hasText: ".mp4" }),
      ).toHaveCount(1, { timeout: 90_000 });
    }

    // 1. The run form: no video has the 64 frames, so the run cannot start; its link extracts them.
    await page.goto(`/projects/${projectId}/judge`);
    await page.getByLabel("Name").fill("Stub VLM (simulated)");
    await page.getByLabel("Base URL").fill(stub.baseURL);
    await page.getByLabel("Model", { exact: true }).fill("stub-vision");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByTestId("endpoint-list")).toContainText("Stub VLM (simulated)");
    await page.getByTestId("run-pipeline").selectOption("vbench2");
    await expect(page.getByTestId("run-vbench2-frames")).toHaveText(
      "None of the 2 videos has VBench's 64 uniform frames: a run needs them. Extract 64 uniform frames",
    );
    await expect(page.getByRole("button", { name: "Start run" })).toBeDisabled();
    await page.getByTestId("run-vbench2-extract").click();
    await expect(page).toHaveURL(/\/pending\?uniform=64&videos=all$/);
    await expect(page.getByTestId("pending-item")).toHaveCount(2);
    await expect(page.getByText("Loading…")).toHaveCount(0);
    await page.getByRole("button", { name: "Extract frames for 2 videos" }).click();
    await expect(page.getByTestId("pending-summary")).toHaveText("Extraction finished: 2 of 2 videos extracted.", {
      timeout: 120_000,
    });

    await page.goto(`/projects/${projectId}/judge`);
    await page.getByTestId("run-pipeline").selectOption("vbench2");
    await expect(page.getByTestId("run-vbench2-frames")).toHaveText("Every video has VBench's 64 uniform frames.");
    await page.getByRole("button", { name: "Start run" }).click();
    await expect(page.getByTestId("run-started")).toContainText("Started on 2 videos");
    await expect(page.getByTestId("run").first().getByTestId("run-status")).toHaveText("done", { timeout: 90_000 });

    // 2. The run page: a generator column and only the dimension the videos were judged in.
    await page.getByTestId("run").first().getByRole("link").first().click();
    await expect(page.getByTestId("run-metric-header")).toHaveText(["Material"]);
    await expect(page.getByTestId("run-video-generator")).toHaveText(["GenA", "GenB"]);

    // 3. VBench's own results (GenB's video passes there, not by the judge): the results page picks them.
    const results = {
      Material: [
        1,
        [`GenA/Material/${PROMPTS.genA}-0.mp4`, `GenB/Material/${PROMPTS.genB}-0.mp4`].map((video_path) => ({
          video_path,
          video_results: 1,
        })),
      ],
    };
    const imported = await page.request.post(`/api/v1/projects/${projectId}/label-sets`, {
      headers: { origin: baseURL! },
      multipart: {
        format: "vbench",
        dryRun: "false",
        name: "VBench's own results",
        file: { name: "eval_results.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(results)) },
      },
    });
    expect(imported.ok()).toBe(true);
    await page.goto(`/projects/${projectId}/vbench2`);
    await expect(page.getByTestId("vbench2-choose").locator("select[name=labelSetId] option:checked")).toHaveText(
      "VBench's own results",
    );
    await expect(page.getByTestId("vbench2-row-Material")).toContainText("50.00% of 2 videos");

    // 4. The Material videos, collapsed; the one that disagrees with VBench; its questions' frames as thumbnails.
    const material = page.getByTestId("vbench2-videos-Material");
    await expect(material.getByTestId("vbench2-video").first()).toBeHidden();
    await material.locator("summary").first().click();
    await expect(material.getByTestId("vbench2-videos-range")).toHaveText("videos 1–2 of 2");
    await material.getByRole("link", { name: "disagreeing (1)" }).click();
    const videos = page.getByTestId("vbench2-videos-Material").getByTestId("vbench2-video");
    await expect(videos).toHaveCount(1);
    await expect(videos.locator("summary")).toContainText("GenB");
    await videos.locator("summary").click();
    const frames = videos.getByTestId("vbench2-question-frames").first();
    await expect(frames.locator("figcaption")).toHaveText("64 frames, 0.00s–1.96s");
    await expect(frames.getByRole("img")).toHaveCount(64);
    const first = frames.getByRole("img").first();
    await expect(first).toHaveJSProperty("complete", true);
    expect(await first.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  } finally {
    await stub.close();
  }
});
