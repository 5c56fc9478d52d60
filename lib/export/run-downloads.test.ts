import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exportQuerySchema } from "../agreement/report-filter";
import { runCommunityDownloads, runDownloads } from "./run-downloads";
import { builtInCatalogue } from "../task-modules/task-catalogue";

const appDir = path.resolve(import.meta.dirname, "../../app");

/** The route file an export href reaches: /api/v1/projects/p/export/hf-dataset → app/api/v1/projects/[projectId]/export/hf-dataset/route.ts. */
function routeFileOf(href: string): string {
  const parts = new URL(href, "http://x").pathname.split("/").filter(Boolean);
  return path.join(appDir, ...parts.map((part, i) => (parts[i - 1] === "projects" ? "[projectId]" : part)), "route.ts");
}

describe("a run's export links (issue 38 §5.6: the run page has its own)", () => {
  const project = { id: "proj 1", name: "Sora hallucinations" };
  const date = new Date("2026-11-23T10:00:00Z");

  it("reach the existing export routes, filtered to the run", () => {
    const downloads = runDownloads(project, "run-7", date);
    expect(downloads.map((d) => d.label)).toEqual([
      "Items CSV",
      "Items JSONL",
      "Hugging Face dataset (.tar)",
      "Label Studio tasks",
      "Label Studio config",
    ]);
    for (const d of downloads) {
      expect(fs.existsSync(routeFileOf(d.href)), d.href).toBe(true);
      expect(new URL(d.href, "http://x").searchParams.get("runId")).toBe("run-7");
      expect(d.href.startsWith("/api/v1/projects/proj%201/export")).toBe(true);
    }
    // The items export's query is one its route accepts.
    const items = new URL(downloads[0]!.href, "http://x").searchParams;
    expect(exportQuerySchema(builtInCatalogue()).parse(Object.fromEntries(items))).toMatchObject({
      runId: "run-7",
      format: "csv",
    });
    expect(new URL(downloads[4]!.href, "http://x").searchParams.get("part")).toBe("config");
  });

  it("name the files as the routes do: project, what, the run and the date", () => {
    const [csv, jsonl, tar] = runDownloads(project, "run-7", date);
    expect(csv!.filename).toBe("framejury_Sora-hallucinations_items_runId-run-7_2026-11-23.csv");
    expect(jsonl!.filename.endsWith(".jsonl")).toBe(true);
    expect(tar!.filename).toBe("framejury_Sora-hallucinations_hf-dataset_runId-run-7_2026-11-23.tar");
    expect(runCommunityDownloads(project, "run-7", date)).toEqual(runDownloads(project, "run-7", date).slice(2));
  });
});
