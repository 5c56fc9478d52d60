import fs from "node:fs";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { WORKER_PROCESS_V8_FLAGS } from "../lib/ops/worker-process-flags";

const ROOT = path.resolve(import.meta.dirname, "..");
const scripts = (
  JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }
).scripts;

/** The young generation's size (bytes) in a node process started with `flags` running `setup`, after it allocated 2M small objects. */
function youngGenerationAfterAllocating(flags: readonly string[], setup = ""): number {
  const script = `${setup}; const kept = []; for (let i = 0; i < 2e6; i++) kept.push({ i }); console.log(require("node:v8").getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size)`;
  return Number(spawnSync(process.execPath, [...flags, "-e", script], { encoding: "utf8" }).stdout);
}

describe("the worker's V8 flags", () => {
  it.each(["worker", "bench:judge"])("npm run %s starts node with them", (name) => {
    const command = scripts[name]!.split(" ");
    expect(command[0]).toBe("node");
    for (const flag of WORKER_PROCESS_V8_FLAGS) expect(command).toContain(flag);
  });

  it("grow the young generation past node's default, and only when given on the command line", () => {
    const byDefault = youngGenerationAfterAllocating([]);
    const setAtRunTime = youngGenerationAfterAllocating(
      [],
      `require("node:v8").setFlagsFromString(${JSON.stringify(WORKER_PROCESS_V8_FLAGS.join(" "))})`,
    );
    const started = youngGenerationAfterAllocating(WORKER_PROCESS_V8_FLAGS);
    expect(byDefault).toBeGreaterThan(0);
    expect(started).toBeGreaterThan(byDefault);
    expect(setAtRunTime).toBe(byDefault);
  });
});
