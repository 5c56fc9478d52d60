import type { DeclarationCatalogue } from "@/lib/task-modules/declaration-catalogue";
import { runName, type RunNameParts } from "@/lib/run-records/run-name";
import { SPAN_WRITE_FORMATS } from "@/lib/spans/span-files/span-file-formats";
import { taskSpanLabels } from "@/lib/spans/span-labels";

/** A run whose judge spans can be downloaded, by the name its link shows. */
export interface JudgeSpanRun {
  id: string;
  name: string;
}

/**
 * The runs whose judge spans the links offer: the one named in the filters, else every run whose task marks spans
 * (a run of another task has none to download).
 */
export function judgeSpanRuns(
  runs: readonly (Omit<RunNameParts, "pipeline"> & { id: string; pipeline?: string })[],
  namedRunId: string | null | undefined,
  catalogue: DeclarationCatalogue,
): JudgeSpanRun[] {
  return runs.flatMap(({ pipeline, ...run }) => {
    if (namedRunId && run.id !== namedRunId) return [];
    const task = catalogue.findTask(pipeline);
    if (!pipeline || !task || taskSpanLabels(task).length === 0) return [];
    return [{ id: run.id, name: runName({ ...run, pipeline }, catalogue) }];
  });
}

/**
 * The span exports as plain links to GET /projects/{id}/export/spans (the route checks the session and withholds the
 * file while the caller reviews some of its videos blind): every span of the project in each format the span file
 * formats' table writes (lib/spans/span-files/span-file-formats.ts), and the judge spans of each run offered (the filters' run, else every run), each
 * link naming its run.
 */
export function SpanExportLinks({ projectId, runs = [] }: { projectId: string; runs?: readonly JudgeSpanRun[] }) {
  const href = (query: Record<string, string>) =>
    `/api/v1/projects/${projectId}/export/spans?${new URLSearchParams(query).toString()}`;
  const links = [
    ...SPAN_WRITE_FORMATS.map((format) => ({ label: format.label, href: href({ format: format.id }) })),
    ...runs.map((run) => ({
      label: `Judge spans of ${run.name} (CSV)`,
      href: href({ format: "csv", author: `run:${run.id}` }),
    })),
  ];
  return (
    <div className="mt-3 flex flex-col gap-1 text-sm" data-testid="span-export-links">
      <div className="flex flex-wrap gap-2">
        {links.map((link) => (
          <a
            key={link.href}
            href={link.href}
            download
            className="rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-50"
            data-testid="span-export-link"
          >
            {link.label}
          </a>
        ))}
      </div>
      <p className="text-xs text-slate-500">
        Spans: one row per span with its video, task, label, annotator and the annotator&apos;s kind (a person, a judge
        run, the gold), frames (from 0, inclusive), seconds, boxes and note; Label Studio&apos;s frames count from 1.
        Import people&apos;s spans back on the Import page (a judge run&apos;s and the gold&apos;s are refused there).
      </p>
    </div>
  );
}
