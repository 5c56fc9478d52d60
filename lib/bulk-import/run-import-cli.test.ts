import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { prisma } from "../db/prisma";
import { createProject } from "../projects/projects";
import { makeUser } from "../../testkit/testing/fixtures";
import { uniqueMp4 } from "../../testkit/testing/media-fixtures";
import type { FileOutcome } from "./import-outcome";
import { progressReporter } from "./progress";
import { runExtractWorkerCli, runImportCli } from "./run-import-cli";

function io(isTTY = false) {
  const out: string[] = [];
  let err = "";
  return {
    out,
    err: () => err,
    io: {
      stdout: (line: string) => out.push(line),
      stderr: { isTTY, columns: 200, write: (text: string) => (err += text) },
    },
  };
}

const savedPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = savedPath;
});

describe("npm run import / framejury import (the command line)", () => {
  it("says what is missing: the project, a folder, the API key for --server; 2 and the usage", async () => {
    for (const [argv, message] of [
      [["./videos"], "--project is required"],
      [["--project", "p1"], "name at least one folder"],
      [["--project", "p1", "--server", "http://localhost:3000", "./videos"], "FRAMEJURY_API_KEY"],
      [["--project", "p1", "--jobs", "0", "./videos"], "--jobs must be a whole number"],
      [["--project", "p1", "--mode", "sideways", "./videos"], "mode"],
    ] as const) {
      const run = io();
      delete process.env.FRAMEJURY_API_KEY;
      expect(await runImportCli([...argv], run.io)).toBe(2);
      expect(run.err()).toContain(message);
    }
  });

  it("--ffmpeg native without native ffmpeg stops at once and names what to install; an unknown --ffmpeg is a usage error", async () => {
    process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-empty-path-"));
    const run = io();
    expect(await runImportCli(["--project", "p1", "--ffmpeg", "native", "./videos"], run.io)).toBe(1);
    expect(run.err()).toMatch(/Native ffmpeg was asked for.*"ffmpeg" could not be run/s);
    expect(run.err()).toContain("apt-get install -y ffmpeg");
    const worker = io();
    expect(await runExtractWorkerCli(["--once", "--ffmpeg", "native"], worker.io)).toBe(1);
    expect(worker.err()).toContain("Install it");
    const unknown = io();
    expect(await runImportCli(["--project", "p1", "--ffmpeg", "static", "./videos"], unknown.io)).toBe(2);
    expect(unknown.err()).toContain("--ffmpeg must be one of auto, native, wasm");
  });

  it("without ffmpeg on PATH, imports with ffmpeg.wasm: says so, records it as the frame set's decoder, and a corrupt file fails clearly while the import goes on", async () => {
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "cli import without ffmpeg" });
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-cli-wasm-import-"));
    fs.mkdirSync(path.join(root, "clips"));
    const good = fs.readFileSync(uniqueMp4("cli-wasm-a"));
    fs.writeFileSync(path.join(root, "clips", "a kite flies-0.mp4"), good);
    fs.writeFileSync(path.join(root, "clips", "a boat sails-0.mp4"), good.subarray(0, Math.floor(good.length * 0.4)));
    fs.copyFileSync(uniqueMp4("cli-wasm-b"), path.join(root, "clips", "a train stops-0.mp4"));
    process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-empty-path-"));
    const run = io();
    const code = await runImportCli(
      ["--project", project.id, "--jobs", "1", "--state", path.join(root, "state.json"), path.join(root, "clips")],
      run.io,
    );
    expect(code).toBe(1); // the cut-short file failed
    expect(run.err()).toMatch(/^extracting frames with ffmpeg\.wasm in Node .* — no native ffmpeg on PATH$/m);
    expect(run.err()).toMatch(/failed \(corrupt\): clips\/a boat sails-0\.mp4 — The file is damaged or truncated/);
    expect(run.err()).toMatch(/imported: clips\/a kite flies-0\.mp4 — \d+ key frames, \d+ frames \(ffmpeg\.wasm\)/);
    expect(run.err()).toMatch(/imported: clips\/a train stops-0\.mp4 — \d+ key frames/);
    expect(run.out.join("\n")).toMatch(
      /^videos: 2 imported, 0 skipped as duplicates, 1 failed, 0 skipped\nfailed: 1 corrupt/m,
    );
    const videos = await prisma.video.findMany({
      where: { projectId: project.id },
      select: { relativePath: true, status: true, frameSets: { select: { decoder: true } } },
      orderBy: { relativePath: "asc" },
    });
    expect(videos).toEqual([
      { relativePath: "clips/a kite flies-0.mp4", status: "ready", frameSets: [{ decoder: "ffmpeg.wasm" }] },
      { relativePath: "clips/a train stops-0.mp4", status: "ready", frameSets: [{ decoder: "ffmpeg.wasm" }] },
    ]);
  }, 120_000);

  it("imports a folder into the local database as the project's owner and prints the summary on stdout, the progress on stderr", async () => {
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "cli import" });
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-cli-import-"));
    fs.mkdirSync(path.join(root, "clips"));
    fs.copyFileSync(uniqueMp4("cli-a"), path.join(root, "clips", "a kite flies-0.mp4"));
    fs.writeFileSync(path.join(root, "clips", "broken-0.mp4"), "");
    const run = io();
    const code = await runImportCli(
      [
        "--project",
        project.id,
        "--model",
        "Veo",
        "--jobs",
        "1",
        "--state",
        path.join(root, "state.json"),
        path.join(root, "clips"),
      ],
      run.io,
    );
    expect(code).toBe(1); // one file failed
    expect(run.out.join("\n")).toMatch(
      /^videos: 1 imported, 0 skipped as duplicates, 1 failed, 0 skipped\nfailed: 1 corrupt\nfailed files:\n {2}clips\/broken-0\.mp4: corrupt — The file is damaged or truncated: it is empty/m,
    );
    expect(run.err()).toMatch(/\[1\/2\] imported: clips\/a kite flies-0\.mp4 — \d+ key frames/);
    expect(run.err()).toMatch(/\[2\/2\] failed \(corrupt\): clips\/broken-0\.mp4/);
    expect(
      await prisma.video.findMany({
        where: { projectId: project.id },
        select: { model: true, createdById: true, status: true },
      }),
    ).toEqual([{ model: "Veo", createdById: owner.userId, status: "ready" }]);
  }, 60_000);

  it("reads VBench-2.0's samples/<model>/<Dimension>/… with the folder above the dimension as the generator, and lists the generators found before anything uploads", async () => {
    const owner = await makeUser();
    const project = await createProject(prisma, owner, { name: "cli import generators" });
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-cli-generators-"));
    for (const model of ["kling-1.6", "wan2.1"]) {
      fs.mkdirSync(path.join(root, "samples", model, "Mechanics"), { recursive: true });
      fs.copyFileSync(
        uniqueMp4(`cli-generator-${model}`),
        path.join(root, "samples", model, "Mechanics", "a ball rolls down a slope-0.mp4"),
      );
    }
    const run = io();
    const code = await runImportCli(
      ["--project", project.id, "--jobs", "1", "--state", path.join(root, "state.json"), path.join(root, "samples")],
      run.io,
    );
    expect(code).toBe(0);
    const lines = run.err().split("\n");
    const found = lines.indexOf("found 2 video files; generators found: kling-1.6 (1 video), wan2.1 (1 video)");
    expect(found).toBeGreaterThanOrEqual(0);
    // Listed before the first video's outcome line: the found line is written before any upload starts.
    expect(found).toBeLessThan(lines.findIndex((line) => line.startsWith("[1/2] ")));
    const videos = await prisma.video.findMany({
      where: { projectId: project.id },
      select: { relativePath: true, model: true, dimensions: true },
      orderBy: { relativePath: "asc" },
    });
    expect(videos).toEqual([
      {
        relativePath: "samples/kling-1.6/Mechanics/a ball rolls down a slope-0.mp4",
        model: "kling-1.6",
        dimensions: ["Mechanics"],
      },
      {
        relativePath: "samples/wan2.1/Mechanics/a ball rolls down a slope-0.mp4",
        model: "wan2.1",
        dimensions: ["Mechanics"],
      },
    ]);
  }, 60_000);
});

describe("the progress reporter", () => {
  const outcome = (status: FileOutcome["status"], relativePath: string): FileOutcome => ({
    relativePath,
    kind: "video",
    status,
    message: "why",
    ...(status === "failed" ? { reason: "corrupt" } : {}),
  });

  it("redraws one bar in place on a terminal, with a line of its own for each failure", () => {
    let text = "";
    const report = progressReporter({ isTTY: true, columns: 200, write: (chunk: string) => (text += chunk) });
    report({ type: "start", videos: 2 });
    report({ type: "file", outcome: outcome("imported", "a-0.mp4"), videosDone: 1, videos: 2 });
    report({ type: "file", outcome: outcome("failed", "b-0.mp4"), videosDone: 2, videos: 2 });
    expect(text).toContain("\r\x1b[K[############------------] 1/2 · 1 imported · 0 duplicates · 0 failed");
    expect(text).toContain("\r\x1b[Kfailed (corrupt): b-0.mp4 — why\n");
    expect(text).toMatch(
      /\[########################\] 2\/2 · 1 imported · 0 duplicates · 1 failed · [\d.]+ videos\/s\n$/,
    );
  });

  it("writes plain lines elsewhere", () => {
    let text = "";
    const report = progressReporter({ isTTY: false, write: (chunk: string) => (text += chunk) });
    report({ type: "start", videos: 1 });
    report({ type: "file", outcome: outcome("duplicate", "a-0.mp4"), videosDone: 1, videos: 1 });
    expect(text).toBe("1 videos to import\n[1/1] duplicate: a-0.mp4 — why\n");
  });
});
