import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { filesLoading, ROOT } from "../../scripts/lib/import-graph";
import { taskModuleReaders } from "./task-module-readers";

describe("the test files that read the task modules (the setup installs the registry for these only)", () => {
  it("follow runtime imports, through other files and dynamic imports, and not type-only ones", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-import-graph-"));
    const write = (name: string, text: string) => fs.writeFileSync(path.join(dir, name), text);
    write("port.ts", "export const port = 1;\n");
    write("middle.ts", 'import { port } from "./port";\nexport const middle = port;\n');
    write("later.ts", 'export async function later() {\n  return await import("./middle");\n}\n');
    write("direct.test.ts", 'import { middle } from "./middle";\n');
    write("dynamic.test.ts", 'import { later } from "./later";\n');
    write("types.test.ts", 'import type { port } from "./port";\nimport { type middle } from "./middle";\n');
    write("none.test.ts", 'import { expect } from "vitest";\n');
    try {
      const files = ["direct.test.ts", "dynamic.test.ts", "types.test.ts", "none.test.ts"].map((name) =>
        path.join(dir, name),
      );
      expect(filesLoading(files, path.join(dir, "port.ts")).map((file) => path.basename(file))).toEqual([
        "direct.test.ts",
        "dynamic.test.ts",
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("list the engine's tests and leave out pure units", () => {
    const [engine, unit] = ["lib/judge/engine/judge-video.test.ts", "lib/stats/percent-agreement.test.ts"].map((file) =>
      path.join(ROOT, file),
    );
    expect(taskModuleReaders([engine!, unit!])).toEqual([engine]);
  });
});
