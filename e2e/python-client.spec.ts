import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { cli, ownerWithProject } from "./helpers";

// The Python client (clients/python) against this real app: an owner with a project and an API key, the stub
// LLM (a test tool) as the judge, one fast and one slow so a run can be cancelled while it waits, then Debian's
// python3 runs the client's unittest suite (clients/python/tests), which imports videos, adds frames, runs the
// judge and reads results, judgments, agreement and exports through the API. Without python3 this test fails
// with a message saying so: it is never skipped.
test("the Python client's unittest suite passes against the running app", async ({ baseURL }, testInfo) => {
  test.setTimeout(420_000);
  const python = spawnSync("python3", ["--version"], { encoding: "utf8" });
  if (python.error || python.status !== 0) throw new Error("python3 is not on PATH: the Python client's tests need Debian's python3 (.ci/run installs it).");

  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  const { startStubLlm } = await import("../lib/llm-stub/stub-server");
  const stub = await startStubLlm({ latencyMs: 5 });
  const slowStub = await startStubLlm({ latencyMs: 20_000 });
  try {
    const owner = await ownerWithProject("python-client");
    const apiKey = await cli("create-api-key", "--email", owner.email, "--name", "python-client");
    const clientFolder = path.join(process.cwd(), "clients", "python");
    const run = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn("python3", ["-m", "unittest", "discover", "-v", "-s", "tests", "-t", "."], {
        cwd: clientFolder,
        env: {
          ...process.env,
          PYTHONPATH: clientFolder,
          PYTHONDONTWRITEBYTECODE: "1",
          FRAMEJURY_URL: baseURL!,
          FRAMEJURY_API_KEY: apiKey.trim(),
          FRAMEJURY_PROJECT_ID: owner.projectId.trim(),
          FRAMEJURY_STUB_URL: stub.baseURL,
          FRAMEJURY_SLOW_STUB_URL: slowStub.baseURL,
        },
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, output }));
    });
    await testInfo.attach("python3 -m unittest output", { body: run.output, contentType: "text/plain" });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/Ran \d+ tests/);
    expect(run.output).not.toContain("skipped");
  } finally {
    await slowStub.close();
    await stub.close();
  }
});
