import { spawnSync } from "node:child_process";
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
});
