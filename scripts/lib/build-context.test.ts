import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import nextConfig from "../../next.config";
import { buildContextFiles, dockerignoreRules, inBuildContext } from "./build-context";
import { importsOf, resolveImport, ROOT } from "./import-graph";

const rules = dockerignoreRules(fs.readFileSync(path.join(ROOT, ".dockerignore"), "utf8"));
// Written by scripts/postinstall.mjs inside the image's build stage, before `next build`.
const GENERATED_IN_IMAGE = /^(lib\/generated|components\/generated|testkit\/generated|public\/ffmpeg)\//;

describe("the image's build context (.dockerignore)", () => {
  it("is an allow-list: backups, archives, a compose override and local state lying in the folder stay out", () => {
    expect(rules[0]).toEqual({ pattern: /^[^/]*$/, include: false });
    const stray = [
      "appdata.tgz",
      "pgdata.tgz",
      "backups/framejury.tar",
      "docker-compose.override.yml",
      "compose.override.yaml",
      "notes.txt",
      "README.md",
      "docs/deploy.md",
      "clients/python/framejury/__init__.py",
      ".env",
      "lib/.env.local",
      ".git/config",
      ".data/postgres/PG_VERSION",
      "node_modules/vitest/package.json",
      "lib/generated/prisma/client.ts",
      "public/ffmpeg/ffmpeg-core.wasm",
      ".next/BUILD_ID",
      "e2e/pages.ts",
      "lib/projects/project-nav.test.ts",
      "components/ui/data-table.test.tsx",
      "testkit/testing/vitest-setup.ts",
      "scripts/test-container.ts",
      "scripts/bench-judge.ts",
      "lib/backups/old.tar",
      "Dockerfile",
      "compose.yaml",
    ];
    expect(stray.filter((file) => inBuildContext(rules, file))).toEqual([]);
    const needed = [
      "package.json",
      "package-lock.json",
      "tsconfig.json",
      "tsconfig.build.json",
      "next.config.ts",
      "app/layout.tsx",
      "lib/tasks/modules.ts",
      "prisma/schema.prisma",
      "prompts/README.md",
      "scripts/worker.ts",
      "scripts/postinstall.mjs",
      "testkit/llm-stub/stub-server.ts",
      "deploy/docker/entrypoint.sh",
      "deploy/docker/healthcheck.mjs",
    ];
    expect(needed.filter((file) => !inBuildContext(rules, file))).toEqual([]);
  });

  it("holds every file the sources that `next build` type-checks import (the image builds with its type check on)", () => {
    const tsconfigPath = nextConfig.typescript?.tsconfigPath ?? "tsconfig.json";
    const { config } = ts.readConfigFile(path.join(ROOT, tsconfigPath), (file) => ts.sys.readFile(file));
    const checked = ts.parseJsonConfigFileContent(config, ts.sys, ROOT).fileNames;
    const context = new Set(buildContextFiles(ROOT));
    const present = (file: string) => context.has(file) || GENERATED_IN_IMAGE.test(file);
    const missing: string[] = [];
    for (const absolute of checked) {
      const file = path.relative(ROOT, absolute).split(path.sep).join("/");
      if (!context.has(file)) continue;
      for (const { from } of importsOf(absolute)) {
        const target = resolveImport(absolute, from);
        if (target && !present(path.relative(ROOT, target).split(path.sep).join("/")))
          missing.push(`${file} → ${from}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("is built by the container test as docs/deploy.md gives the build: with the type check", () => {
    const containerTest = fs.readFileSync(path.join(ROOT, "scripts/test-container.ts"), "utf8");
    expect(containerTest).not.toContain("BUILD_SKIP_TYPECHECK");
    const deployDoc = fs.readFileSync(path.join(ROOT, "docs/deploy.md"), "utf8");
    expect(deployDoc).toContain("docker build -t framejury .");
  });
});

/** The Dockerfile's instructions by stage, each with its continued lines joined and its comments left out. */
function dockerfileStages(): Map<string, string[]> {
  const text = fs.readFileSync(path.join(ROOT, "Dockerfile"), "utf8");
  const lines = text.split("\n").filter((line) => !line.trim().startsWith("#"));
  const instructions = lines
    .join("\n")
    .replace(/\\\n/g, " ")
    .split("\n")
    .filter((line) => line.trim() !== "");
  const stages = new Map<string, string[]>();
  let current: string[] = [];
  for (const instruction of instructions) {
    const from = /^FROM\s+\S+\s+AS\s+(\S+)/i.exec(instruction);
    if (from) stages.set(from[1]!, (current = []));
    current.push(instruction);
  }
  return stages;
}

describe("the Dockerfile", () => {
  const stages = dockerfileStages();

  it("cleans apt's lists and cache in the RUN that installs the runtime's packages", () => {
    const install = stages.get("runtime")!.filter((line) => line.includes("apt-get install"));
    expect(install).toHaveLength(1);
    expect(install[0]).toContain("rm -rf /var/lib/apt/lists/*");
    expect(install[0]).toMatch(/apt-get clean|rm -rf [^&]*\/var\/cache\/apt/);
  });

  it("gives the runtime only the production packages, without source maps", () => {
    expect(stages.get("deps")!.join("\n")).toMatch(/npm install --omit=dev/);
    const build = stages.get("build")!;
    const last = build[build.length - 1]!;
    expect(last).toContain("mv /tmp/prod-modules node_modules");
    expect(last).toMatch(/find node_modules \.next [^&]*-name '\*\.map'[^&]*-delete/);
    const copies = stages.get("runtime")!.filter((line) => line.startsWith("COPY"));
    expect(copies).toEqual(["COPY --from=build /app /app"]);
  });
});
