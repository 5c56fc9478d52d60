import fs from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/*
 * The architecture rules in eslint.config.mjs, run through ESLint's Node API on small sources placed in the folders
 * they govern, so a rule that stopped matching (a renamed folder, a glob typo) fails here instead of passing silently.
 * import/no-restricted-paths judges resolved files, so the test gives it a throwaway task folder to import from.
 */
const ROOT = path.resolve(import.meta.dirname, "..");
const TASK = `lint-fixture-${process.pid}`;
const created = [path.join(ROOT, "lib/tasks", TASK), path.join(ROOT, "components/tasks", TASK)];

let eslint: ESLint;

beforeAll(() => {
  fs.mkdirSync(created[0]!, { recursive: true });
  fs.writeFileSync(path.join(created[0]!, "steps.ts"), "export const steps = [];\n");
  fs.mkdirSync(created[1]!, { recursive: true });
  fs.writeFileSync(path.join(created[1]!, "view.tsx"), "export function View() {\n  return null;\n}\n");
  eslint = new ESLint({ cwd: ROOT });
});

afterAll(() => {
  for (const dir of created) fs.rmSync(dir, { recursive: true, force: true });
});

/** The rule ids ESLint reports for `source` as if it were the file at `file` (repository-relative). */
async function ruleIds(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(ROOT, file) });
  expect(result!.messages.filter((m) => m.fatal)).toEqual([]);
  return result!.messages.map((m) => m.ruleId ?? "");
}

describe("the core-boundary rule", () => {
  it("reports core lib/ importing a task's own folder, by alias or by relative path", async () => {
    expect(
      await ruleIds(
        "lib/queues/lint-probe.ts",
        `import { steps } from "@/lib/tasks/${TASK}/steps";\nexport const all = steps;\n`,
      ),
    ).toEqual(["import/no-restricted-paths", "layers/no-restricted-paths"]);
    expect(
      await ruleIds(
        "lib/queues/lint-probe.ts",
        `import { steps } from "../tasks/${TASK}/steps";\nexport const all = steps;\n`,
      ),
    ).toEqual(["import/no-restricted-paths", "layers/no-restricted-paths"]);
  });

  it("reports core components/ importing a task's components", async () => {
    expect(
      await ruleIds(
        "components/queues/lint-probe.tsx",
        `import { View } from "@/components/tasks/${TASK}/view";\nexport const Shown = View;\n`,
      ),
    ).toEqual(["import/no-restricted-paths"]);
    // From lib/ it breaks the layer rule too (lib/ below components/): two zones of the same rule report it.
    expect(
      new Set(
        await ruleIds(
          "lib/visibility/lint-probe.ts",
          `import { View } from "@/components/tasks/${TASK}/view";\nexport const Shown = View;\n`,
        ),
      ),
    ).toEqual(new Set(["import/no-restricted-paths"]));
  });

  it("lets the core read the built-in catalogue from the catalogue layer, and components read the registry", async () => {
    expect(
      await ruleIds(
        "lib/queues/lint-probe.ts",
        `import { builtInCatalogue } from "@/lib/task-modules/task-catalogue";\nexport const all = builtInCatalogue().tasks;\n`,
      ),
    ).toEqual([]);
    expect(
      await ruleIds(
        "components/queues/lint-probe.tsx",
        `import { BUILT_IN_DECLARATIONS } from "@/lib/tasks/registry";\nexport const all = BUILT_IN_DECLARATIONS.tasks;\n`,
      ),
    ).toEqual([]);
  });

  it("reports core lib/ importing the declarations' registry, which loads every task folder", async () => {
    expect(
      await ruleIds(
        "lib/queues/lint-probe.ts",
        `import { BUILT_IN_DECLARATIONS } from "@/lib/tasks/registry";\nexport const all = BUILT_IN_DECLARATIONS.tasks;\n`,
      ),
    ).toEqual(["import/no-restricted-paths", "layers/no-restricted-paths"]);
  });

  it("reports the core importing the registry's install point or the generated list of task modules", async () => {
    expect(
      await ruleIds("lib/queues/lint-probe.ts", `import "@/lib/tasks/modules";\nexport const probe = 1;\n`),
    ).toEqual(["import/no-restricted-paths", "layers/no-restricted-paths"]);
    expect(
      await ruleIds(
        "lib/queues/lint-probe.ts",
        `import { videoItemLists } from "../tasks/video-item-lists";\nexport const lists = videoItemLists;\n`,
      ),
    ).toEqual(["import/no-restricted-paths", "layers/no-restricted-paths"]);
    expect(
      await ruleIds(
        "components/queues/lint-probe.tsx",
        `import { GENERATED_TASK_MODULES } from "@/lib/generated/tasks/modules";\nexport const all = GENERATED_TASK_MODULES;\n`,
      ),
    ).toEqual(["import/no-restricted-paths"]);
  });

  it("lets the core read the installed task modules through the port, and the entry points install them", async () => {
    expect(await ruleIds("lib/queues/lint-probe.ts", `\nexport const all = installedTaskModules;\n`)).toEqual([]);
    expect(
      await ruleIds(
        "app/projects/[projectId]/lint-probe.ts",
        `import "@/lib/tasks/modules";\nexport const probe = 1;\n`,
      ),
    ).toEqual([]);
    expect(
      await ruleIds("testkit/testing/lint-probe.ts", `import "../../lib/tasks/modules";\nexport const probe = 1;\n`),
    ).toEqual([]);
  });

  it("lets app/, the task's own folder and the test harness import task code", async () => {
    const source = `import { steps } from "@/lib/tasks/${TASK}/steps";\nexport const all = steps;\n`;
    expect(await ruleIds("app/projects/[projectId]/lint-probe.ts", source)).toEqual([]);
    expect(await ruleIds(`lib/tasks/${TASK}/other.ts`, source)).toEqual([]);
    expect(await ruleIds("testkit/testing/lint-probe.ts", source)).toEqual([]);
  });
});

describe("the layer rule of lib/'s folders (generated from scripts/layers.json)", () => {
  it("reports a folder importing a folder of a higher layer, by alias or by relative path", async () => {
    const intoJudge = `import { readRunMetrics } from "@/lib/run-records/run-metrics";\nexport const read = readRunMetrics;\n`;
    expect(await ruleIds("lib/db/lint-probe.ts", intoJudge)).toEqual(["layers/no-restricted-paths"]);
    expect(
      await ruleIds(
        "lib/videos/lint-probe.ts",
        `import { spanRecord } from "../spans/span-store";\nexport const probe = spanRecord;\n`,
      ),
    ).toEqual(["layers/no-restricted-paths"]);
    expect(
      await ruleIds(
        "lib/tasks/registry-probe.ts",
        `import { withProject } from "@/lib/api/with-project";\nexport const probe = withProject;\n`,
      ),
    ).toEqual(["layers/no-restricted-paths"]);
  });

  it("lets a folder import its own layer and lower ones, a task's routes the route wrappers, a task its own folder", async () => {
    const intoDb = `import { prisma } from "@/lib/db/prisma";\nexport const db = prisma;\n`;
    expect(await ruleIds("lib/judge/lint-probe.ts", intoDb)).toEqual([]);
    expect(
      await ruleIds(
        `lib/tasks/${TASK}/routes/lint-probe.ts`,
        `import { withProject } from "@/lib/api/with-project";\nexport const probe = withProject;\n`,
      ),
    ).toEqual([]);
    expect(
      await ruleIds(`lib/tasks/${TASK}/lint-probe.ts`, `import { steps } from "./steps";\nexport const all = steps;\n`),
    ).toEqual([]);
  });

  it("lets a file of the allowed list import just the folders listed for it", async () => {
    const allowed = `import { readRunMetrics } from "@/lib/run-records/run-metrics";\nexport const read = readRunMetrics;\n`;
    expect(await ruleIds("lib/reviews/reviews.ts", allowed)).toEqual([]);
    const other = `import { ensembleFamily } from "@/lib/ensembles/ensemble-runs";\nexport const family = ensembleFamily;\n`;
    expect(await ruleIds("lib/reviews/reviews.ts", other)).toEqual(["layers/no-restricted-paths"]);
  });
});

describe("the layer rule: lib/ below components/ below app/", () => {
  it("reports lib/ importing components/ or app/, by alias or by relative path, in the core and in a task's folder", async () => {
    const intoComponents = `import { buttonClass } from "@/components/class-names";\nexport const shown = buttonClass;\n`;
    const intoApp = `import { getPageActor } from "@/app/_server/actor";\nexport const actorOf = getPageActor;\n`;
    expect(await ruleIds("lib/queues/lint-probe.ts", intoComponents)).toEqual(["import/no-restricted-paths"]);
    expect(
      await ruleIds(
        "lib/queues/lint-probe.ts",
        `import { buttonClass } from "../../components/class-names";\nexport const shown = buttonClass;\n`,
      ),
    ).toEqual(["import/no-restricted-paths"]);
    expect(await ruleIds("lib/queues/lint-probe.ts", intoApp)).toEqual(["import/no-restricted-paths"]);
    expect(await ruleIds(`lib/tasks/${TASK}/lint-probe.ts`, intoApp)).toEqual(["import/no-restricted-paths"]);
  });

  it("reports components/ importing app/, a task's own views included", async () => {
    const intoApp = `import { getPageActor } from "@/app/_server/actor";\nexport const actorOf = getPageActor;\n`;
    expect(await ruleIds("components/queues/lint-probe.tsx", intoApp)).toEqual(["import/no-restricted-paths"]);
    expect(await ruleIds(`components/tasks/${TASK}/lint-probe.tsx`, intoApp)).toEqual(["import/no-restricted-paths"]);
  });

  it("lets a task's pages (app/ code mounted by a one-line page) use app/'s server helpers, and tests drive routes", async () => {
    const intoApp = `import { getPageActor } from "@/app/_server/actor";\nexport const actorOf = getPageActor;\n`;
    expect(await ruleIds(`components/tasks/${TASK}/pages/lint-probe.tsx`, intoApp)).toEqual([]);
    expect(
      await ruleIds(
        "lib/queues/lint-probe.test.ts",
        `import { GET } from "@/app/api/health/route";\nexport const get = GET;\n`,
      ),
    ).toEqual([]);
  });
});

describe("lib/ and Next.js", () => {
  it("reports lib/ outside lib/tasks importing next or next/*", async () => {
    expect(
      await ruleIds(
        "lib/queues/lint-probe.ts",
        `import { redirect } from "next/navigation";\nexport const go = redirect;\n`,
      ),
    ).toEqual(["no-restricted-imports"]);
    expect(
      await ruleIds(
        "lib/queues/lint-probe.ts",
        `import type { NextConfig } from "next";\nexport type Config = NextConfig;\n`,
      ),
    ).toEqual(["no-restricted-imports"]);
  });

  it("lets app/ and a task's glue import Next.js", async () => {
    const source = `import { redirect } from "next/navigation";\nexport const go = redirect;\n`;
    expect(await ruleIds("app/lint-probe.ts", source)).toEqual([]);
    expect(await ruleIds(`lib/tasks/${TASK}/glue.ts`, source)).toEqual([]);
  });
});

describe("pages query only through lib/", () => {
  it("reports a page calling prisma.<model> or prisma.$<method> itself", async () => {
    const header = `import { prisma } from "@/lib/db/prisma";\n`;
    expect(
      await ruleIds(
        "app/projects/lint-probe/page.tsx",
        `${header}export default async function Page() {\n  return <p>{await prisma.video.count()}</p>;\n}\n`,
      ),
    ).toEqual(["no-restricted-syntax"]);
    expect(
      await ruleIds(
        "app/projects/lint-probe/page.tsx",
        `${header}export default async function Page() {\n  await prisma.$transaction([]);\n  return null;\n}\n`,
      ),
    ).toEqual(["no-restricted-syntax"]);
  });

  it("reports it in a task's own page too (components/tasks/<id>/pages, mounted by a one-line app/ page)", async () => {
    const source = `import { prisma } from "@/lib/db/prisma";\nexport default async function Page() {\n  return <p>{await prisma.video.count()}</p>;\n}\n`;
    expect(await ruleIds(`components/tasks/${TASK}/pages/lint-probe-page.tsx`, source)).toEqual([
      "no-restricted-syntax",
    ]);
  });

  it("lets a page hand prisma to a lib/ function", async () => {
    const source = `import { prisma } from "@/lib/db/prisma";\nimport { listProjects } from "@/lib/projects/list";\nexport default async function Page() {\n  return <p>{(await listProjects(prisma)).length}</p>;\n}\n`;
    expect(await ruleIds("app/projects/lint-probe/page.tsx", source)).toEqual([]);
  });
});

describe("route handlers never touch the database", () => {
  const route = "app/api/v1/lint-probe/route.ts";

  it("reports a route importing the database, even only to hand it to lib/", async () => {
    const source = `import { prisma } from "@/lib/db/prisma";\nimport { listProjects } from "@/lib/projects/list";\nexport const GET = async () => Response.json(await listProjects(prisma));\n`;
    expect(await ruleIds(route, source)).toEqual(["no-restricted-imports"]);
  });

  it("reports a route querying with the prisma its wrapper handed it", async () => {
    const source = `import { withProject } from "@/lib/api/with-project";\nexport const GET = withProject("project.view", { summary: "s", responses: [] }, async ({ prisma, project }) =>\n  Response.json(await prisma.video.count({ where: { projectId: project.id } })),\n);\n`;
    expect(await ruleIds(route, source)).toEqual(["no-restricted-syntax"]);
  });

  it("lets a route hand its context's prisma to a lib/ function, and keeps the redacting-read rule", async () => {
    const handing = `import { withProject } from "@/lib/api/with-project";\nimport { listRuns } from "@/lib/judge/runs/list-runs";\nexport const GET = withProject("project.view", { summary: "s", responses: [] }, async ({ prisma, actor, project }) =>\n  Response.json(await listRuns(prisma, actor, project.id)),\n);\n`;
    expect(await ruleIds(route, handing)).toEqual([]);
    const unredacted = `import { captionDetail } from "@/lib/tasks/captions/caption-detail";\nexport const read = captionDetail;\n`;
    expect(await ruleIds(route, unredacted)).toEqual(["no-restricted-imports"]);
  });
});

describe("no id tails on screen", () => {
  it("reports a page or component showing a slice of an id", async () => {
    expect(
      await ruleIds(
        "components/runs/lint-probe.tsx",
        `export const Tail = ({ run }: { run: { id: string } }) => <span>{run.id.slice(-6)}</span>;\n`,
      ),
    ).toEqual(["no-restricted-syntax"]);
    expect(
      await ruleIds("app/lint-probe.tsx", `export const tail = (videoId: string) => videoId.substring(0, 8);\n`),
    ).toEqual(["no-restricted-syntax"]);
    expect(
      await ruleIds(
        "app/projects/lint-probe/page.tsx",
        `export default function Page({ r }: { r: { runId: string } }) {\n  return <p>{r.runId.substr(0, 6)}</p>;\n}\n`,
      ),
    ).toEqual(["no-restricted-syntax"]);
  });

  it("reports `run ${id}` in a template and run {id} in JSX", async () => {
    expect(
      await ruleIds(
        "components/runs/lint-probe.tsx",
        "export const label = (run: { id: string }) => `Run ${run.id}`;\n",
      ),
    ).toEqual(["no-restricted-syntax"]);
    expect(
      await ruleIds(
        "components/runs/lint-probe.tsx",
        `export const Label = ({ id }: { id: string }) => <p>Started run {id}</p>;\n`,
      ),
    ).toEqual(["no-restricted-syntax"]);
  });

  it("lets names be sliced and runs be named", async () => {
    const source =
      "export const Label = ({ run }: { run: { id: string; name: string } }) => <p title={`run ${run.name}`}>Started run {run.name.slice(0, 40)}</p>;\n";
    expect(await ruleIds("components/runs/lint-probe.tsx", source)).toEqual([]);
  });
});

describe("caption results on pages and routes", () => {
  it("reports importing an unredacted read, wherever the module lives", async () => {
    for (const from of ["@/lib/judge/pipelines/captions/caption-results", "@/lib/tasks/captions/caption-results"]) {
      expect(
        await ruleIds(
          "app/lint-probe.ts",
          `import { captionDetail } from "${from}";\nexport const read = captionDetail;\n`,
        ),
      ).toEqual(["no-restricted-imports"]);
    }
    // A task's route handlers are written in lib/tasks/<id>/routes and mounted by app/: the rule follows them there.
    expect(
      await ruleIds(
        `lib/tasks/${TASK}/routes/lint-probe.ts`,
        `import { captionDetail } from "@/lib/tasks/captions/caption-results";\nexport const read = captionDetail;\n`,
      ),
    ).toEqual(["no-restricted-imports"]);
  });

  it("reports each unredacted read from the module of its operation, caption and QA alike", async () => {
    const reads = [
      ["captionDetail", "@/lib/tasks/captions/caption-detail"],
      ["projectCaptionOverview", "@/lib/tasks/captions/caption-overview"],
      ["runCaptionResults", "@/lib/tasks/captions/caption-run-results"],
      ["questionDetail", "@/lib/tasks/qa/qa-questions"],
      ["projectQaOverview", "@/lib/tasks/qa/qa-overview"],
      ["runQaResultSlices", "@/lib/tasks/qa/qa-run-questions"],
    ];
    for (const [name, from] of reads)
      expect(
        await ruleIds("app/lint-probe.ts", `import { ${name} } from "${from}";\nexport const read = ${name};\n`),
      ).toEqual(["no-restricted-imports"]);
    const allowed = `import { captionFilterOptions } from "@/lib/tasks/captions/caption-detail";\nimport { qaFilterOptions } from "@/lib/tasks/qa/qa-questions";\nexport const all = [captionFilterOptions, qaFilterOptions];\n`;
    expect(await ruleIds("app/lint-probe.ts", allowed)).toEqual([]);
  });

  it("lets pages import the redacting reads and the module's other exports", async () => {
    const source = `import { captionFilterOptions } from "@/lib/judge/pipelines/captions/caption-results";\nimport { captionDetail } from "@/lib/judge/pipelines/captions/visible-caption-results";\nexport const all = [captionFilterOptions, captionDetail];\n`;
    expect(await ruleIds("app/lint-probe.ts", source)).toEqual([]);
  });
});
