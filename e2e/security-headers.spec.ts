import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { ownerWithProject, signIn } from "./helpers";

// Security headers on pages, API answers and static files, and a real import (WebCodecs and the
// ffmpeg.wasm fallback, in the cross-origin isolated import page) that runs under the page's CSP
// without a single violation.

function directives(policy: string | undefined): Map<string, string[]> {
  expect(policy, "a Content-Security-Policy header").toBeTruthy();
  return new Map(
    policy!
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

function expectCommonHeaders(headers: Record<string, string>, what: string) {
  expect(headers["x-content-type-options"], what).toBe("nosniff");
  expect(headers["referrer-policy"], what).toBe("strict-origin-when-cross-origin");
  const csp = directives(headers["content-security-policy"]);
  expect(csp.get("default-src"), what).toEqual(["'self'"]);
  expect(csp.get("frame-ancestors"), what).toEqual(["'none'"]);
  expect(csp.get("object-src"), what).toEqual(["'none'"]);
  return csp;
}

test("pages, API answers and static files carry the security headers; page scripts run on a per-request nonce", async ({
  request,
  page,
}) => {
  const first = await request.get("/sign-in");
  expect(first.status()).toBe(200);
  const csp = expectCommonHeaders(first.headers(), "page");
  const scriptSrc = csp.get("script-src")!;
  expect(scriptSrc).toEqual(expect.arrayContaining(["'strict-dynamic'", "'wasm-unsafe-eval'"]));
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  expect(scriptSrc).not.toContain("'unsafe-eval'");
  const nonce = scriptSrc.find((v) => v.startsWith("'nonce-"))!.slice("'nonce-".length, -1);
  expect(nonce.length).toBeGreaterThanOrEqual(16);
  const html = await first.text();
  // Every script Next.js rendered carries this response's nonce.
  const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  expect(scripts.length).toBeGreaterThan(0);
  for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
  const second = await request.get("/sign-in");
  expect(directives(second.headers()["content-security-policy"]).get("script-src")).not.toContain(`'nonce-${nonce}'`);

  const api = await request.get("/api/health");
  expect(api.status()).toBe(200);
  expectCommonHeaders(api.headers(), "API");
  const refused = await request.get("/api/v1/me");
  expect(refused.status()).toBe(401);
  expectCommonHeaders(refused.headers(), "API error");

  const chunk = scripts.map((tag) => /src="([^"]+)"/.exec(tag)?.[1]).find((src) => src?.startsWith("/_next/static/"));
  expect(chunk).toBeTruthy();
  const asset = await request.get(chunk!);
  expect(asset.status()).toBe(200);
  const assetCsp = expectCommonHeaders(asset.headers(), "static chunk");
  expect(assetCsp.get("script-src")).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  // The isolation headers the extraction workers need are still there.
  expect(asset.headers()["cross-origin-embedder-policy"]).toBe("require-corp");
  const ffmpegCore = await request.head("/ffmpeg/core-mt/ffmpeg-core.worker.js");
  expect(ffmpegCore.status()).toBe(200);
  expectCommonHeaders(ffmpegCore.headers(), "ffmpeg file");
  expect(ffmpegCore.headers()["cross-origin-embedder-policy"]).toBe("require-corp");
  expect(ffmpegCore.headers()["cross-origin-resource-policy"]).toBe("same-origin");

  // The 404 of an unknown address is rendered per request too, so its scripts run under the nonce.
  const violations = watchForCspViolations(page);
  const missing = await page.goto("/no-such-page");
  expect(missing?.status()).toBe(404);
  expectCommonHeaders(missing!.headers(), "404 page");
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to your projects" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  expect(await violations()).toEqual([]);
});

/** Collects CSP violations: the browser's console reports (pages and workers) and the page's events. */
function watchForCspViolations(page: Page): () => Promise<string[]> {
  const seen: string[] = [];
  const onConsole = (text: string) => {
    if (/content security policy|securitypolicyviolation/i.test(text)) seen.push(text);
  };
  page.on("console", (message) => onConsole(message.text()));
  page.on("worker", (worker) => worker.on("console", (message) => onConsole(message.text())));
  void page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`securitypolicyviolation: ${event.violatedDirective} blocked ${event.blockedURI || "inline"}`),
    );
  });
  return async () => seen;
}

let root: string;
const prompt = "A paper boat drifts across a puddle and turns slowly";

test.beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-csp-import-"));
  const folder = path.join(root, "CspModel", "Mechanics");
  fs.mkdirSync(folder, { recursive: true });
  const make = (out: string, source: string, codec: string[]) =>
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
      ...codec,
      path.join(folder, out),
    ]);
  // H.264: WebCodecs decodes it. MPEG-4 Part 2 in Matroska: mediabunny demuxes it, WebCodecs cannot
  // decode it, so the import falls back to ffmpeg.wasm (its multi-thread core, the page is isolated).
  make(`${prompt}-0.mp4`, "testsrc2=size=320x240:rate=24", [
    "-c:v",
    "libx264",
    "-pix_fmt",
    "yuv420p",
    "-movflags",
    "+faststart",
  ]);
  make(`${prompt}-1.mkv`, "mandelbrot=size=320x240:rate=24", ["-c:v", "mpeg4", "-q:v", "4"]);
});

test.afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

test("an import with WebCodecs and the ffmpeg.wasm fallback runs under the CSP without a violation", async ({
  page,
}) => {
  test.setTimeout(150_000);
  const owner = await ownerWithProject("csp-import");
  await signIn(page, owner.email, owner.password);
  const violations = watchForCspViolations(page);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  const ffmpegRequests: string[] = [];
  page.context().on("request", (r) => {
    if (r.url().includes("/ffmpeg/")) ffmpegRequests.push(new URL(r.url()).pathname);
  });

  const response = await page.goto(`/projects/${owner.projectId}/import`);
  expect(response?.headers()["content-security-policy"]).toContain("'nonce-");
  expect(response?.headers()["cross-origin-opener-policy"]).toBe("same-origin");
  expect(response?.headers()["cross-origin-embedder-policy"]).toBe("require-corp");
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);

  await page.getByTestId("folder-input").setInputFiles(path.join(root, "CspModel"));
  await expect(page.getByTestId("import-item")).toHaveCount(2);
  await page.getByRole("button", { name: "Start import" }).click();
  const item = (suffix: string) => page.locator(`[data-testid="import-item"][data-path$="${suffix}"]`);
  await expect(item("-0.mp4")).toHaveAttribute("data-state", "done", { timeout: 60_000 });
  await expect(item("-1.mkv")).toHaveAttribute("data-state", "done", { timeout: 120_000 });
  await expect(item("-0.mp4").getByTestId("import-item-message")).toContainText("(webcodecs)");
  await expect(item("-1.mkv").getByTestId("import-item-message")).toContainText("(ffmpeg.wasm)");
  expect(ffmpegRequests).toEqual(expect.arrayContaining(["/ffmpeg/core-mt/ffmpeg-core.wasm"]));

  // The stored frames show as thumbnails and on the video page, still without a violation.
  await page.goto(`/projects/${owner.projectId}/videos`);
  await expect(page.getByTestId("video-row")).toHaveCount(2);
  await page.getByRole("link", { name: `${prompt}-1.mkv` }).click();
  const width = await page
    .getByTestId("key-frame")
    .first()
    .evaluate((img: HTMLImageElement) => img.decode().then(() => img.naturalWidth));
  expect(width).toBe(320);

  expect(errors).toEqual([]);
  expect(await violations()).toEqual([]);
});
