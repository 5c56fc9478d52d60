"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import { buttonClass } from "@/components/class-names";
import { apiFetch } from "@/lib/api-client";

const input = "rounded-md border border-slate-300 px-2 py-1.5";

/** What an import's answer says, read loosely: its counts, its refusals, and the set it made. */
interface ImportAnswer {
  pairSetId?: string;
  id?: string;
  refused?: unknown;
  refusals?: unknown;
  [key: string]: unknown;
}

/** A refusal as a line: "row 3: unknown verdict" when it names its row and reason, else as it came. */
function refusalText(refusal: unknown): string {
  if (typeof refusal === "string") return refusal;
  const { row, line, reason } = (refusal ?? {}) as { row?: unknown; line?: unknown; reason?: unknown };
  const where = row ?? line;
  if (typeof reason === "string") return where === undefined ? reason : `row ${String(where)}: ${reason}`;
  return JSON.stringify(refusal);
}

function Counts({ answer }: { answer: ImportAnswer }) {
  const counts = Object.entries(answer).filter(([, value]) => typeof value === "number");
  const refusals = (
    Array.isArray(answer.refusals) ? answer.refusals : Array.isArray(answer.refused) ? answer.refused : []
  ) as unknown[];
  return (
    <div className="flex flex-col gap-1" data-testid="pair-import-counts">
      <ul className="flex flex-wrap gap-3">
        {counts.map(([key, value]) => (
          <li key={key}>
            {key}: <span className="tabular-nums">{String(value)}</span>
          </li>
        ))}
      </ul>
      {refusals.length > 0 && (
        <ul className="list-disc pl-5 text-rose-800" data-testid="pair-import-refusals">
          {refusals.slice(0, 50).map((refusal, i) => (
            <li key={i}>{refusalText(refusal)}</li>
          ))}
          {refusals.length > 50 && <li>… and {refusals.length - 50} more</li>}
        </ul>
      )}
    </div>
  );
}

/**
 * A pairwise label set imported into a new pair set (owners): the file goes first as a dry run, whose counts of rows
 * imported, interpreted and refused (with reasons) show before "Import" sends it again for real.
 */
export function PairImportForm({ projectId }: { projectId: string }) {
  const router = useRouter();
  const formRef = useRef<HTMLFormElement>(null);
  const [checked, setChecked] = useState<ImportAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: ({ dryRun }: { dryRun: boolean }) => {
      const form = new FormData(formRef.current!);
      form.set("dryRun", dryRun ? "true" : "false");
      return apiFetch<ImportAnswer>(`/api/v1/projects/${projectId}/pair-imports`, { method: "POST", body: form });
    },
    onSuccess: (answer, { dryRun }) => {
      if (dryRun) return setChecked(answer);
      const id = answer.pairSetId ?? answer.id;
      router.push(id ? `/projects/${projectId}/pairs/${id}` : `/projects/${projectId}/pairs`);
      router.refresh();
    },
    onError: (e) => setError(e.message),
  });
  const run = (dryRun: boolean) => {
    setError(null);
    send.mutate({ dryRun });
  };
  return (
    <form
      ref={formRef}
      className="flex flex-col gap-3 text-sm"
      data-testid="pair-import-form"
      onChange={() => setChecked(null)}
      onSubmit={(event) => {
        event.preventDefault();
        run(true);
      }}
    >
      <div className="flex flex-wrap gap-3">
        <label className="flex flex-col gap-1">
          Format
          <select name="format" defaultValue="auto" className={input}>
            <option value="auto">Find out from the file</option>
            <option value="uve_bench">UVE-Bench annotations (JSON)</option>
            <option value="arena">Arena battles (JSON/JSONL)</option>
            <option value="genai_bench">GenAI-Bench pairwise (JSON)</option>
            <option value="generic">CSV or JSONL (video_a, video_b, verdict, aspect, rater)</option>
          </select>
        </label>
        <label className="flex flex-col gap-1">
          Name of the new pair set
          <input name="name" maxLength={200} className={input} />
        </label>
        <label className="flex flex-col gap-1">
          File
          <input name="file" type="file" required className="text-sm" />
        </label>
      </div>
      {error && (
        <p role="alert" className="text-rose-700">
          {error}
        </p>
      )}
      {checked && <Counts answer={checked} />}
      <div className="flex gap-2">
        <button className={buttonClass("secondary")} disabled={send.isPending}>
          Check (dry run)
        </button>
        <button
          type="button"
          className={buttonClass()}
          disabled={!checked || send.isPending}
          onClick={() => run(false)}
        >
          Import
        </button>
      </div>
    </form>
  );
}
