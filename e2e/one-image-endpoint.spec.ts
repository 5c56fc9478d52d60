import { expect, test } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// vLLM started without --limit-mm-per-prompt takes one image per request. The endpoint's Test probes that
// limit and shows it on the endpoint's row; the hallucination run then sends each multi-frame step's frames
// tiled into one image, and finishes.
test("the hallucination pipeline finishes against an endpoint that takes one image per request, with tiled frames", async ({
  page,
}) => {
  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  process.env.STORAGE_DIR = process.env.E2E_STORAGE_DIR;
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const { prisma } = await import("../lib/db/prisma");
  const { projectWithFramedVideos } = await import("../testkit/testing/judge-fixtures");
  const stub = await startStubLlm({ latencyMs: 20 });
  try {
    const owner = await ownerWithProject("one-image-endpoint");
    const user = await prisma.user.findUniqueOrThrow({ where: { email: owner.email } });
    const { projectId } = await projectWithFramedVideos(
      prisma,
      { userId: user.id, email: user.email, name: user.name, isAdmin: false },
      { videoCount: 1, keyFrames: 2, name: "One image" },
    );

    await signIn(page, owner.email, owner.password);
    await page.goto(`/projects/${projectId}/judge`);
    await page.getByLabel("Name").fill("vLLM, one image (simulated)");
    await page.getByLabel("Base URL").fill(stub.baseURL);
    // The stub answers a model named "…images-per-request-1…" as vLLM with its default image limit.
    await page.getByLabel("Model").fill("stub-images-per-request-1-e2e");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const endpoint = page.getByTestId("endpoint-item").filter({ hasText: "vLLM, one image (simulated)" });
    await expect(endpoint.getByTestId("endpoint-capabilities")).toHaveText("Not probed yet (Test probes it).");

    await endpoint.getByRole("button", { name: "Test" }).click();
    await expect(endpoint.getByTestId("test-answered")).toHaveText("yes", { timeout: 60_000 });
    await expect(endpoint.getByTestId("endpoint-capabilities")).toContainText("≤1 image per request (more are tiled)");
    await expect(endpoint.getByTestId("endpoint-capabilities")).toContainText("JSON: json_schema");
    const probeRequests = stub.requests.length;

    await page.getByRole("button", { name: "Start run" }).click();
    const run = page.getByTestId("run").first();
    await expect(run.getByTestId("run-status")).toHaveText("done", { timeout: 90_000 });
    await expect(run.getByTestId("run-counts")).toContainText("10/10");

    const runRequests = stub.requests.slice(probeRequests);
    expect(runRequests).toHaveLength(10);
    // Every request carried one image and was answered; the multi-frame steps sent theirs tiled, and said so.
    expect(runRequests.map((r) => [r.imageCount, r.status])).toEqual(Array.from({ length: 10 }, () => [1, 200]));
    expect(runRequests.filter((r) => r.text.includes("frames are tiled into the one image below")).length).toBe(6);
  } finally {
    await stub.close();
  }
});
