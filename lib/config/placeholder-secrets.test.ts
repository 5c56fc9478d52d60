import { execFile, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { assertNoPlaceholderSecrets, PlaceholderSecretError, placeholderSecrets } from "./placeholder-secrets";

describe("placeholder secrets", () => {
  it("finds none in real values", () => {
    expect(
      placeholderSecrets({
        APP_SECRET: "x".repeat(40),
        DATABASE_URL: "postgresql://framejury:s3cret@db:5432/framejury",
        ADMIN_PASSWORD: "a long password",
        PATH: "/CHANGEME/bin",
      }),
    ).toEqual([]);
  });

  it("names each secret variable still set to CHANGEME, in any case", () => {
    expect(
      placeholderSecrets({
        APP_SECRET: "CHANGEME",
        ADMIN_PASSWORD: "changeme",
        S3_SECRET_ACCESS_KEY: "CHANGEME-minio",
        OIDC_CLIENT_SECRET: "CHANGEME",
        GITHUB_CLIENT_SECRET: "CHANGEME",
      }),
    ).toEqual(["APP_SECRET", "ADMIN_PASSWORD", "S3_SECRET_ACCESS_KEY", "OIDC_CLIENT_SECRET", "GITHUB_CLIENT_SECRET"]);
  });

  it("reads DATABASE_URL's password, not its user, host or database names", () => {
    expect(placeholderSecrets({ DATABASE_URL: "postgresql://framejury:CHANGEME@postgres:5432/framejury" })).toEqual([
      "DATABASE_URL",
    ]);
    expect(placeholderSecrets({ DATABASE_URL: "postgresql://u@h/db?password=CHANGEME" })).toEqual(["DATABASE_URL"]);
    expect(placeholderSecrets({ DATABASE_URL: "postgresql://changeme:pw@changeme-db/changeme" })).toEqual([]);
  });

  it("throws an error that names the variables and says what to do", () => {
    expect(() => assertNoPlaceholderSecrets({ APP_SECRET: "CHANGEME" })).toThrow(PlaceholderSecretError);
    expect(() => assertNoPlaceholderSecrets({ APP_SECRET: "CHANGEME", ADMIN_PASSWORD: "CHANGEME" })).toThrow(
      /^APP_SECRET, ADMIN_PASSWORD are still the placeholder CHANGEME: set each to a secret of your own/,
    );
  });

  it("stops a process with a non-zero status and the variable's name on stderr", () => {
    const script = `import { refuseToStartWithPlaceholderSecrets } from "./lib/config/placeholder-secrets.ts";
      refuseToStartWithPlaceholderSecrets("[framejury]"); console.log("started");`;
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "--eval", script], {
        encoding: "utf8",
        env: { ...process.env, ...env },
      });
    const refused = run({ APP_SECRET: "CHANGEME" });
    expect(refused.status).toBe(78);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toContain("[framejury] refusing to start: APP_SECRET is still the placeholder CHANGEME");
    const started = run({ APP_SECRET: "y".repeat(40) });
    expect(started.status, started.stderr).toBe(0);
    expect(started.stdout.trim()).toBe("started");
  });

  it("stops every role of the image that reads settings (deploy/docker/entrypoint.sh), naming the variable", async () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const entrypoint = fs.readFileSync(path.join(root, "deploy/docker/entrypoint.sh"), "utf8");
    // The test tools (the stub LLM, the demo with its own database) hold no secret of the deployment.
    const roles = [...entrypoint.matchAll(/^\s+([\w-]+)\)[^*]*?exec node [^\n]*?(scripts\/[\w-]+\.ts)/gm)]
      .map(([, role, script]) => ({ role: role!, script: script! }))
      .filter(({ role }) => role !== "stub-llm" && role !== "demo");
    expect(roles.map(({ role }) => role).sort()).toEqual(
      ["backup", "cli", "extract-worker", "import", "migrate", "restore", "web", "worker"].sort(),
    );
    const outcomes = await Promise.all(
      roles.map(async ({ role, script }) => {
        const run = await promisify(execFile)(process.execPath, ["--import", "tsx", script, "--help"], {
          cwd: root,
          encoding: "utf8",
          // A DATABASE_URL nothing listens on: a role that went on would fail on it, not hang.
          env: { ...process.env, APP_SECRET: "CHANGEME", DATABASE_URL: "postgresql://u:p@127.0.0.1:9/none" },
        }).then(
          (done) => ({ status: 0, stderr: done.stderr }),
          (error: { code?: number; stderr?: string }) => ({ status: error.code, stderr: error.stderr ?? "" }),
        );
        return {
          role,
          status: run.status,
          named: /refusing to start: APP_SECRET is still the placeholder/.test(run.stderr),
        };
      }),
    );
    expect(outcomes).toEqual(roles.map(({ role }) => ({ role, status: 78, named: true })));
  }, 120_000);
});
