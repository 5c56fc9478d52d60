"use client";

import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { FilePicker } from "@/components/file-picker";
import { apiFetch } from "@/lib/api-client";
import type { LabelSetFormatDeclaration } from "@/lib/label-sets/label-set-format";
import { exampleLabelTargets, labelTargetChoices } from "@/lib/label-sets/label-target-examples";
import { ColumnMapEditor, columnMapJson, type ColumnMapState } from "@/components/label-sets/column-map-editor";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";
import { taskLabelSetFormatDeclarations } from "@/lib/label-sets/label-sets.validation";

interface SheetIssue {
  row: number;
  column: string;
  cell: string;
  action: "interpreted" | "skipped";
  message: string;
}

interface Plan {
  name: string;
  fileName: string;
  sha256: string;
  rows: number;
  matchedVideos: number;
  judgments: Record<string, number>;
  issues: SheetIssue[];
  headers: string[];
  /** Generic files: labels per annotator. */
  annotators?: Record<string, number>;
}

interface LabelSetRow {
  id: string;
  name: string;
  fileName: string;
  sha256: string;
  citation: string;
  createdAt: string;
  judgments: number;
  importedBy: { name: string | null; email: string | null };
}

/** The core's generic CSV/JSONL label file, offered after the tasks' own formats. */
const GENERIC_FORMAT: LabelSetFormatDeclaration = {
  id: "generic",
  label: "Generic CSV / JSONL",
  description: "any labels as CSV or JSONL",
  fileLabel: "Label file",
  accept: ".csv,.jsonl,.ndjson",
  defaultName: "",
};

/**
 * Imports a label file of a task's own format (the registered tasks' declarations), or a generic CSV/JSONL
 * label file, as a label set: a dry run shows what would be created and every cell read other than as
 * written or skipped; only then can it be imported. Lists the stored label sets.
 */
export function LabelSetPanel({ projectId }: { projectId: string }) {
  const queryClient = useQueryClient();
  const catalogue = useTaskCatalogue();
  const [formats] = useState(() => [...taskLabelSetFormatDeclarations(catalogue), GENERIC_FORMAT]);
  const [initialFormat] = useState(() => formats.find((f) => f.isDefault) ?? formats[0]!);
  const [formatId, setFormatId] = useState(initialFormat.id);
  const format = formats.find((f) => f.id === formatId) ?? GENERIC_FORMAT;
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState(initialFormat.defaultName);
  const [citation, setCitation] = useState("");
  const [match, setMatch] = useState<"file_name" | "column">("file_name");
  const [mappingColumn, setMappingColumn] = useState("");
  /** A generic file in the wide layout: one column per criterion, mapped below. */
  const [wide, setWide] = useState(false);
  const [headers, setHeaders] = useState<string[]>([]);
  const [columnMap, setColumnMap] = useState<ColumnMapState>({
    video: "video",
    annotator: "",
    targets: [{ column: "", target: "" }],
  });
  const [plan, setPlan] = useState<Plan | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const labelSets = useQuery({
    queryKey: ["label-sets", projectId],
    queryFn: () =>
      apiFetch<{ labelSets: LabelSetRow[] }>(`/api/v1/projects/${projectId}/label-sets`).then((b) => b.labelSets),
  });

  async function send(dryRun: boolean) {
    if (!file) return;
    const form = new FormData();
    form.set("format", format.id);
    form.set("name", name);
    form.set("citation", citation);
    if (format.matchVideos) {
      form.set("match", match);
      if (match === "column") form.set("mappingColumn", mappingColumn);
    }
    if (format.id === GENERIC_FORMAT.id && wide) form.set("columns", columnMapJson(columnMap));
    form.set("dryRun", dryRun ? "true" : "false");
    form.set("file", file, file.name);
    setBusy(true);
    setMessage(null);
    try {
      const result = await apiFetch<{
        dryRun: boolean;
        plan: Plan;
        labelSet: { id: string; judgments: number } | null;
      }>(`/api/v1/projects/${projectId}/label-sets`, { method: "POST", body: form });
      setPlan(result.plan);
      setHeaders(result.plan.headers);
      if (!result.dryRun) {
        setMessage(`Imported "${result.plan.name}": ${result.labelSet?.judgments ?? 0} labels.`);
        setPlan(null);
        setFile(null);
        await refetchAfterWrite(queryClient, ["label-sets", projectId]);
      }
    } catch (error) {
      setPlan(null);
      setMessage(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }

  async function remove(id: string) {
    setBusy(true);
    try {
      const result = await apiFetch<{ deletedJudgments: number }>(`/api/v1/projects/${projectId}/label-sets/${id}`, {
        method: "DELETE",
      });
      setMessage(`Deleted the label set and its ${result.deletedJudgments} labels.`);
      await refetchAfterWrite(queryClient, ["label-sets", projectId]);
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }

  const changed = () => setPlan(null);
  return (
    <section
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm"
      data-testid="label-set-panel"
    >
      <h2 className="text-base font-semibold text-slate-800">Label sets (published human labels)</h2>
      <p className="max-w-3xl text-slate-600">
        Import {formats.map((f) => f.description).join(", or ")} with the columns <code>video</code> (path or file
        name), <code>annotator</code>, <code>target</code> (a declared target:{" "}
        {exampleLabelTargets(catalogue.tasks).map((target) => (
          <span key={target}>
            <code>{target}</code>,{" "}
          </span>
        ))}
        …), <code>value</code> and <code>item</code> (the item, for targets of an item), as a read-only label set: it
        appears as an annotator (one per <code>annotator</code> value) in the agreement dashboard and the paper&apos;s
        table. A generic file may instead have <b>one column per criterion</b> (a rubric task&apos;s): map each column
        to its criterion, and name the video and annotator columns. Import the videos first.
        <b> Dry run</b> shows what would be created and every cell that had to be interpreted or skipped; nothing is
        stored until <b>Import</b>.
      </p>
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1">
          Format
          <select
            className="rounded-md border border-slate-300 px-2 py-1"
            value={format.id}
            aria-label="Label file format"
            data-testid="label-set-format"
            onChange={(e) => (setFormatId(e.target.value), setFile(null), changed())}
          >
            {formats.map((f) => (
              <option key={f.id} value={f.id}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <FilePicker
          key={format.id}
          label={format.fileLabel}
          accept={format.accept}
          file={file}
          testId="label-set-file"
          onChange={(picked) => (setFile(picked), changed())}
        />
        <label className="flex flex-col gap-1">
          Name
          <input
            className="rounded-md border border-slate-300 px-2 py-1"
            value={name}
            data-testid="label-set-name"
            onChange={(e) => (setName(e.target.value), changed())}
          />
        </label>
        <label className="flex flex-col gap-1">
          Citation
          <input
            className="w-72 rounded-md border border-slate-300 px-2 py-1"
            value={citation}
            onChange={(e) => setCitation(e.target.value)}
          />
        </label>
        {format.matchVideos && (
          <label className="flex flex-col gap-1">
            Match videos
            <select
              className="rounded-md border border-slate-300 px-2 py-1"
              value={match}
              aria-label="Match videos"
              onChange={(e) => (setMatch(e.target.value as "file_name" | "column"), changed())}
            >
              <option value="file_name">by file name ({format.matchVideos.fileNameColumn})</option>
              <option value="column">by a mapping column</option>
            </select>
          </label>
        )}
        {format.matchVideos && match === "column" && (
          <label className="flex flex-col gap-1">
            Mapping column
            <input
              className="rounded-md border border-slate-300 px-2 py-1"
              value={mappingColumn}
              list="label-set-headers"
              onChange={(e) => (setMappingColumn(e.target.value), changed())}
            />
            <datalist id="label-set-headers">
              {plan?.headers.map((h) => (
                <option key={h} value={h} />
              ))}
            </datalist>
          </label>
        )}
        {format.id === GENERIC_FORMAT.id && (
          <label className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={wide}
              data-testid="label-set-wide"
              onChange={(e) => (setWide(e.target.checked), changed())}
            />
            one column per criterion
          </label>
        )}
        <button type="button" className={buttonClass("secondary")} disabled={!file || busy} onClick={() => send(true)}>
          Dry run
        </button>
        <button type="button" className={buttonClass()} disabled={!plan || busy} onClick={() => send(false)}>
          Import
        </button>
      </div>
      {format.id === GENERIC_FORMAT.id && wide && (
        <ColumnMapEditor
          map={columnMap}
          onChange={(map) => (setColumnMap(map), changed())}
          choices={labelTargetChoices(catalogue.tasks)}
          headers={headers}
        />
      )}
      {message && (
        <p className="text-slate-700" role="status" data-testid="label-set-message">
          {message}
        </p>
      )}
      {plan && (
        <div className="flex flex-col gap-2" data-testid="label-set-plan">
          <p>
            {plan.rows} rows, {plan.matchedVideos} matched to videos; would create{" "}
            {Object.entries(plan.judgments)
              .map(([type, n]) => `${n} ${type}`)
              .join(", ") || "nothing"}{" "}
            labels. SHA-256 <span className="font-mono text-xs">{plan.sha256.slice(0, 16)}…</span>
          </p>
          {plan.annotators && (
            <p data-testid="label-set-annotators">
              Annotators:{" "}
              {Object.entries(plan.annotators)
                .map(([annotator, n]) => `${annotator} (${n})`)
                .join(", ") || "none"}
            </p>
          )}
          {plan.issues.length > 0 && (
            <table className="w-full text-left text-xs" data-testid="label-set-issues">
              <thead className="text-slate-500">
                <tr>
                  <th className="py-1 pr-2">{format.id === GENERIC_FORMAT.id ? "line" : "row"}</th>
                  <th className="pr-2">column</th>
                  <th className="pr-2">cell</th>
                  <th className="pr-2"></th>
                  <th>what was done</th>
                </tr>
              </thead>
              <tbody>
                {plan.issues.map((issue, i) => (
                  <tr
                    key={i}
                    className="border-t border-slate-100"
                    data-testid="label-set-issue"
                    data-action={issue.action}
                  >
                    <td className="py-1 pr-2">{issue.row}</td>
                    <td className="pr-2">{issue.column}</td>
                    <td className="whitespace-pre pr-2 font-mono">{JSON.stringify(issue.cell)}</td>
                    <td className="pr-2">{issue.action}</td>
                    <td>{issue.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
      {labelSets.data && labelSets.data.length > 0 && (
        <ul
          className="flex flex-col divide-y divide-slate-100 rounded border border-slate-200"
          data-testid="label-sets"
        >
          {labelSets.data.map((set) => (
            <li key={set.id} className="flex flex-wrap items-center gap-3 px-3 py-2" data-testid="label-set">
              <span className="font-medium">{set.name}</span>
              <span className="text-slate-500">
                {set.fileName} · {set.judgments} labels · {new Date(set.createdAt).toLocaleString()} by{" "}
                {set.importedBy.name || set.importedBy.email || "?"}
                {set.citation ? ` · ${set.citation}` : ""}
              </span>
              <button type="button" className={buttonClass("danger")} disabled={busy} onClick={() => remove(set.id)}>
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
