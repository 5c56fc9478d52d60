"use client";

// Spans as a label set, in a format the span file formats' table reads (lib/spans/span-files/span-file-formats.ts):
// a CSV or JSONL of spans, or a Label Studio export of video annotations. A dry run lists
// what would be created and every row that cannot be, with where it is and why; only a file without such rows imports.
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { buttonClass } from "@/components/class-names";
import { FilePicker } from "@/components/file-picker";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";
import { ApiError, apiFetch } from "@/lib/api-client";
import { refetchAfterWrite } from "@/lib/api-client/refetch-after-write";
import { taskSpanLabels } from "@/lib/spans/span-labels";
import { PROJECT_SPAN_TASK } from "@/lib/spans/span-types";
import { SPAN_READ_FORMATS, type SpanReadFormatId } from "@/lib/spans/span-files/span-file-formats";
import type { SpanImportAnswer, SpanImportPlan, SpanImportProblem } from "@/lib/spans/span-files/span-import.types";
import type { VideoMatchKind } from "@/lib/spans/span-files/span-resolve";

/** The problems of a dry run or of a refused import: where each row is and why it cannot be imported. */
function SpanProblems({ problems, count }: { problems: readonly SpanImportProblem[]; count: number }) {
  if (problems.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      <p className="text-amber-800">
        {count} row{count === 1 ? "" : "s"} cannot be imported
        {count > problems.length ? ` (the first ${problems.length})` : ""}; fix them and try again: nothing is imported
        while any remain.
      </p>
      <table className="w-full text-left text-xs" data-testid="span-import-problems">
        <thead className="text-slate-500">
          <tr>
            <th className="py-1 pr-2">where</th>
            <th>why</th>
          </tr>
        </thead>
        <tbody>
          {problems.map((p, i) => (
            <tr key={i} className="border-t border-slate-100" data-testid="span-import-problem">
              <td className="py-1 pr-2 whitespace-nowrap">{p.where}</td>
              <td>{p.message}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const MATCH_KINDS: readonly VideoMatchKind[] = ["id", "path", "file name"];

/**
 * How the spans found their videos. Spans found by path or file name come from a file whose ids are not this
 * project's (exported from another project with the same clips, or made elsewhere): worth a look before importing.
 */
function MatchedBy({ matchedBy }: { matchedBy: Partial<Record<VideoMatchKind, number>> }) {
  const byName = (matchedBy.path ?? 0) + (matchedBy["file name"] ?? 0);
  return (
    <p data-testid="span-import-matched-by">
      Videos found{" "}
      {MATCH_KINDS.map((kind, i) => (
        <span key={kind}>
          {i > 0 ? ", " : ""}
          <span data-testid="span-import-matched-by-count">
            by {kind}: {matchedBy[kind] ?? 0}
          </span>
        </span>
      ))}
      .
      {byName > 0 &&
        ` ${byName} span${byName === 1 ? "" : "s"} found ${byName === 1 ? "its video" : "their videos"} by path or file name: the file's video ids (if any) are not videos of this project.`}
    </p>
  );
}

function SpanPlanView({ plan }: { plan: SpanImportPlan }) {
  const list = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([key, n]) => `${key} (${n})`)
      .join(", ") || "none";
  return (
    <div className="flex flex-col gap-2" data-testid="span-import-plan">
      <p>
        {plan.rows} rows, {plan.matchedVideos} videos; would create {plan.spans} spans. Labels: {list(plan.labels)}.
        Annotators: {list(plan.annotators)}. SHA-256{" "}
        <span className="font-mono text-xs">{plan.sha256.slice(0, 16)}…</span>
      </p>
      <MatchedBy matchedBy={plan.matchedBy ?? {}} />
      <SpanProblems problems={plan.problems} count={plan.problemCount} />
    </div>
  );
}

/** The tasks whose labels spans may carry, then the project's own list. */
function useSpanTasks() {
  const catalogue = useTaskCatalogue();
  return [
    ...catalogue.tasks.filter((t) => taskSpanLabels(t).length > 0).map((t) => ({ id: t.id, label: t.label })),
    { id: PROJECT_SPAN_TASK, label: "The project's own span labels" },
  ];
}

/** The form's sends: a dry run or an import, with what the server answered (a plan, or the rows it refused). */
function useSpanImport(projectId: string) {
  const queryClient = useQueryClient();
  const [plan, setPlan] = useState<SpanImportPlan | null>(null);
  const [refused, setRefused] = useState<{ problems: SpanImportProblem[]; count: number } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const changed = () => (setPlan(null), setRefused(null));

  async function send(form: FormData, dryRun: boolean, onImported: () => void) {
    setBusy(true);
    setMessage(null);
    setRefused(null);
    try {
      const result = await apiFetch<SpanImportAnswer>(`/api/v1/projects/${projectId}/label-sets`, {
        method: "POST",
        body: form,
      });
      setPlan(result.dryRun ? result.plan : null);
      if (!dryRun) {
        setMessage(`Imported "${result.plan.name}": ${result.labelSet?.spans ?? 0} spans.`);
        onImported();
        await refetchAfterWrite(queryClient, ["label-sets", projectId]);
      }
    } catch (error) {
      setPlan(null);
      setMessage(error instanceof Error ? error.message : String(error));
      const body = error instanceof ApiError ? (error.body as { error?: { details?: unknown } } | null) : null;
      const listed = body?.error?.details as { problems?: SpanImportProblem[]; problemCount?: number } | undefined;
      if (listed?.problems)
        setRefused({ problems: listed.problems, count: listed.problemCount ?? listed.problems.length });
    } finally {
      setBusy(false);
    }
  }
  return { plan, refused, message, busy, changed, send };
}

/** What a span file may hold and what the import refuses. */
function SpanImportHelp() {
  return (
    <p className="max-w-3xl text-slate-600">
      Import labelled stretches of the videos as a read-only label set: a CSV or JSONL with <code>video</code> (path,
      file name or id), <code>label</code>, <code>start</code>/<code>end</code> in seconds or <code>start_frame</code>/
      <code>end_frame</code>, and optional <code>boxes</code>, <code>task</code>, <code>annotator</code> and{" "}
      <code>note</code>; or Label Studio&apos;s JSON export of video annotations (timeline labels and video rectangles).
      Rows without a task take the task chosen here. A label set holds people&apos;s spans: rows of a judge run or of
      the gold (<code>author_kind</code> judge or gold, or an annotator named <code>run:…</code> or <code>gold</code>)
      are refused. <b>Dry run</b> lists every row that cannot be imported; a file imports only when none remain.
    </p>
  );
}

export function SpanFileImport({ projectId }: { projectId: string }) {
  const tasks = useSpanTasks();
  const [format, setFormat] = useState<SpanReadFormatId>(SPAN_READ_FORMATS[0]!.id);
  const [task, setTask] = useState(tasks[0]!.id);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const { plan, refused, message, busy, changed, send: sendForm } = useSpanImport(projectId);

  async function send(dryRun: boolean) {
    if (!file) return;
    const form = new FormData();
    form.set("format", format);
    form.set("name", name);
    form.set("task", task);
    form.set("dryRun", dryRun ? "true" : "false");
    form.set("file", file, file.name);
    await sendForm(form, dryRun, () => setFile(null));
  }

  const accept = SPAN_READ_FORMATS.find((f) => f.id === format)!.accept;
  return (
    <section
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 text-sm"
      data-testid="span-import"
    >
      <h2 className="text-base font-semibold text-slate-800">Spans (CSV, JSONL, Label Studio)</h2>
      <SpanImportHelp />
      <div className="flex flex-wrap items-end gap-3">
        <label className="flex flex-col gap-1">
          Format
          <select
            className="rounded-md border border-slate-300 px-2 py-1"
            value={format}
            data-testid="span-import-format"
            onChange={(e) => (setFormat(e.target.value as typeof format), setFile(null), changed())}
          >
            {SPAN_READ_FORMATS.map((f) => (
              <option key={f.id} value={f.id}>
                {f.label}
              </option>
            ))}
          </select>
        </label>
        <FilePicker
          key={format}
          label="Span file"
          accept={accept}
          file={file}
          testId="span-import-file"
          onChange={(picked) => (setFile(picked), changed())}
        />
        <label className="flex flex-col gap-1">
          Task
          <select
            className="rounded-md border border-slate-300 px-2 py-1"
            value={task}
            data-testid="span-import-task"
            onChange={(e) => (setTask(e.target.value), changed())}
          >
            {tasks.map((t) => (
              <option key={t.id} value={t.id}>
                {t.label}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Name
          <input
            className="rounded-md border border-slate-300 px-2 py-1"
            value={name}
            data-testid="span-import-name"
            onChange={(e) => (setName(e.target.value), changed())}
          />
        </label>
        <button type="button" className={buttonClass("secondary")} disabled={!file || busy} onClick={() => send(true)}>
          Dry run
        </button>
        <button
          type="button"
          className={buttonClass()}
          disabled={!plan || plan.problemCount > 0 || busy}
          onClick={() => send(false)}
        >
          Import
        </button>
      </div>
      {message && (
        <p className="text-slate-700" role="status" data-testid="span-import-message">
          {message}
        </p>
      )}
      {plan && <SpanPlanView plan={plan} />}
      {refused && <SpanProblems problems={refused.problems} count={refused.count} />}
    </section>
  );
}
