import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// Judges that watch the video, in the browser: an owner adds the stub LLM (a test tool, in its default mode it takes
// video parts), probes it and sees the input modes it found on the endpoint form, runs the same hallucination task in
// images and video-frames modes in one sweep, opens the two runs side by side, and opens a call of the video-frames
// run to see the frames that went as one video part. Each page is kept as a screenshot in the test's output folder.
test("an owner probes an endpoint, sweeps images and video-frames, compares the runs and reads a call's frames", async ({
  page,
}) => {
  test.setTimeout(240_000);
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const stub = await startStubLlm({ latencyMs: 20 });
  const shot = (name: string) => page.screenshot({ path: test.info().outputPath(name), fullPage: true });
  try {
    const owner = await ownerWithProject("video-inputs");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const { projectId, videoIds } = await projectWithFramedVideos(
      prisma,
      { userId: user.id, email: user.email, name: user.name, isAdmin: false },
      { videoCount: 3, keyFrames: 2, name: "Watched" },
    );
    // One video per generator, so each run ranks three generators.
    for (const [i, id] of videoIds.entries())
      await prisma.video.update({ where: { id }, data: { model: `Gen${"ABC"[i]}` } });

    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/judge`);
    await page.getByLabel("Name").fill("Stub video judge");
    await page.getByLabel("Base URL").fill(stub.baseURL);
    await page.getByLabel("Model").fill("stub-vision");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const endpoint = page.getByTestId("endpoint-item").filter({ hasText: "Stub video judge" });
    await expect(endpoint).toBeVisible();

    // The probe: the stub answers images and both video modes; the endpoint form lists what it found of each.
    await endpoint.getByRole("button", { name: "Test" }).click();
    await expect(endpoint.getByTestId("endpoint-capabilities")).not.toContainText("Not probed yet", {
      timeout: 60_000,
    });
    await endpoint.getByRole("button", { name: "Edit" }).click();
    const findings = endpoint.getByTestId("endpoint-input-mode-findings");
    await expect(findings).toContainText(/images: accepted/);
    await expect(findings).toContainText(/video-frames: accepted, up to \d+ frames per video/);
    await expect(findings).toContainText(/video-file: accepted/);
    await shot("1-endpoint-input-modes.png");
    await endpoint.getByRole("button", { name: "Edit" }).click();

    // One sweep: the same task in images and video-frames modes, linked to their comparison.
    await page.getByTestId("run-sweep").selectOption("modes");
    await page.getByRole("button", { name: "Start run" }).click();
    await expect(page.getByTestId("sweep-started")).toContainText("Started 2 runs (images, video-frames)");
    const runs = page.getByTestId("run");
    await expect(runs).toHaveCount(2);
    for (const i of [0, 1])
      await expect(runs.nth(i).getByTestId("run-status")).toHaveText("done", { timeout: 120_000 });
    await shot("2-sweep-started.png");

    await page.getByTestId("sweep-compare-link").click();
    await expect(page.getByRole("heading", { name: "Runs side by side" })).toBeVisible();
    await expect(page.getByTestId("run-differences")).toContainText("Input mode: #1 images · #2 video-frames");
    await expect(page.getByTestId("compared-run")).toHaveCount(2);
    const table = page.getByTestId("run-comparison-table");
    await expect(table).toContainText("Input mode");
    await expect(table).toContainText("video-frames");
    await expect(table).toContainText("Bytes sent");
    await expect(page.getByTestId("run-comparison-tau")).toContainText("#1 and #2");
    await shot("3-runs-side-by-side.png");

    // A call of the video-frames run: a cluster's frames went as one video part, marked on the strip.
    const framesRun = await prisma.judgeRun.findFirstOrThrow({
      where: { projectId, inputMode: "video-frames" },
      select: { id: true },
    });
    await page.goto(`/projects/${projectId}/runs/${framesRun.id}/videos/${videoIds[0]}`);
    const step = page
      .getByTestId("inspector-step")
      .filter({ has: page.locator('[data-testid="call-frame"][data-part="video"]') })
      .first();
    await step.locator("summary").click();
    const strip = step.getByTestId("call-frame-strip");
    await expect(strip.locator('[data-part="video"]').first()).toBeVisible();
    expect(await strip.locator('[data-part="video"]').count()).toBeGreaterThanOrEqual(2);
    await expect(step.getByTestId("call-saw").first()).toHaveAttribute("data-mode", "video-frames");
    await expect(strip.getByTestId("call-frame-time").first()).toHaveText(/^\d+\.\d\d s$/);
    await shot("4-call-frame-strip.png");
  } finally {
    await stub.close();
    await prisma.$disconnect();
  }
});
