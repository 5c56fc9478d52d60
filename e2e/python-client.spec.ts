import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { cli, ownerWithProject } from "./helpers";

// The Python client (clients/python) against this real app: an owner with a project and an API key, the stub
// LLM (a test tool) as the judge, one fast and one slow so a run can be cancelled while it waits, then Debian's
// python3 runs the client's unittest suite (clients/python/tests), which imports videos, adds frames, runs the
// judge and reads results, judgments, agreement and exports through the API. Without python3 this test fails
// with a message saying so: it is never skipped. The client is first installed the way the README says,
// `pip install` of clients/python (offline: no build isolation, no index), and the tests import that copy.
test("the Python client's unittest suite passes against the running app", async ({ baseURL }, testInfo) => {
  test.setTimeout(420_000);
  // Debian's python3 where it is (its pip, setuptools and wheel install offline), else the one on PATH.
  const python3 = fs.existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const version = spawnSync(python3, ["--version"], { encoding: "utf8" });
  if (version.error || version.status !== 0)
    throw new Error("python3 is not on PATH: the Python client's tests need Debian's python3 (.ci/run installs it).");
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-python-client-"));
  const source = path.join(work, "source");
  const site = path.join(work, "site");
  fs.cpSync(path.join(process.cwd(), "clients", "python"), source, {
    recursive: true,
    filter: (from) => !/(__pycache__|\.egg-info|[/\\]build)$/.test(from),
  });
  const install = spawnSync(
    python3,
    [
      "-m",
      "pip",
      "install",
      "--no-build-isolation",
      "--no-index",
      "--disable-pip-version-check",
      "--target",
      site,
      source,
    ],
    { encoding: "utf8" },
  );
  expect(
    install.status,
    `pip install ./clients/python failed (Debian: apt-get install python3-pip python3-setuptools python3-wheel):\n${install.stdout}${install.stderr}`,
  ).toBe(0);
  // The tests alone, beside no source copy of the package, so `import framejury` finds the installed one.
  fs.cpSync(path.join(source, "tests"), path.join(work, "tests"), { recursive: true });
  const where = spawnSync(python3, ["-c", "import framejury; print(framejury.__file__)"], {
    cwd: work,
    encoding: "utf8",
    env: { ...process.env, PYTHONPATH: site },
  });
  expect(where.stdout.trim().startsWith(site), where.stdout + where.stderr).toBe(true);

  process.env.DATABASE_URL = process.env.E2E_DATABASE_URL;
  const { startStubLlm } = await import("../testkit/llm-stub/stub-server");
  const stub = await startStubLlm({ latencyMs: 5 });
  const slowStub = await startStubLlm({ latencyMs: 20_000 });
  try {
    const owner = await ownerWithProject("python-client");
    const apiKey = await cli("create-api-key", "--email", owner.email, "--name", "python-client");
    const run = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(python3, ["-m", "unittest", "discover", "-v", "-s", "tests", "-t", "."], {
        cwd: work,
        env: {
          ...process.env,
          PYTHONPATH: site,
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
    fs.rmSync(work, { recursive: true, force: true });
  }
});
