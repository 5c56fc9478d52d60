// The label-set panel's read-outs: what the form accepts, what a dry run would create (with every cell read other
// than as written), and the stored label sets.
import { buttonClass } from "@/components/class-names";
import type { LabelSetFormatDeclaration } from "@/lib/task-modules/label-set-format";
import type { LabelSetListAnswer } from "@/lib/label-sets/label-sets.validation";
import { exampleLabelTargets } from "@/lib/label-sets/label-target-examples";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";

interface SheetIssue {
  row: number;
  column: string;
  cell: string;
  action: "interpreted" | "skipped";
  message: string;
}

export interface Plan {
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

/** A label set as GET /projects/{projectId}/label-sets lists it. */
export type LabelSetRow = LabelSetListAnswer["labelSets"][number];

/** Which files the form takes and what an import makes of them. */
export function LabelSetHelp({ formats }: { formats: readonly LabelSetFormatDeclaration[] }) {
  const catalogue = useTaskCatalogue();
  return (
    <p className="max-w-3xl text-slate-600">
      Import {formats.map((f) => f.description).join(", or ")} with the columns <code>video</code> (path or file name),{" "}
      <code>annotator</code>, <code>target</code> (a declared target:{" "}
      {exampleLabelTargets(catalogue.tasks).map((target) => (
        <span key={target}>
          <code>{target}</code>,{" "}
        </span>
      ))}
      …), <code>value</code> and <code>item</code> (the item, for targets of an item), as a read-only label set: it
      appears as an annotator (one per <code>annotator</code> value) in the agreement dashboard and the paper&apos;s
      table. A generic file may instead have <b>one column per criterion</b> (a rubric task&apos;s): map each column to
      its criterion, and name the video and annotator columns. Import the videos first.
      <b> Dry run</b> shows what would be created and every cell that had to be interpreted or skipped; nothing is
      stored until <b>Import</b>.
    </p>
  );
}

/** A dry run's plan: rows, matches, the labels it would create, its annotators and every cell it interpreted or skipped. */
export function LabelSetPlanView({ plan, lineWord }: { plan: Plan; lineWord: "line" | "row" }) {
  return (
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
              <th className="py-1 pr-2">{lineWord}</th>
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
  );
}

export function LabelSetList({
  labelSets,
  busy,
  onDelete,
}: {
  labelSets: readonly LabelSetRow[];
  busy: boolean;
  onDelete: (id: string) => void;
}) {
  return (
    <ul className="flex flex-col divide-y divide-slate-100 rounded border border-slate-200" data-testid="label-sets">
      {labelSets.map((set) => (
        <li key={set.id} className="flex flex-wrap items-center gap-3 px-3 py-2" data-testid="label-set">
          <span className="font-medium">{set.name}</span>
          <span className="text-slate-500">
            {set.fileName} · {set.spans ? `${set.spans} spans` : `${set.judgments} labels`} ·{" "}
            {new Date(set.createdAt).toLocaleString()} by {set.importedBy.name || set.importedBy.email || "?"}
            {set.citation ? ` · ${set.citation}` : ""}
          </span>
          <button type="button" className={buttonClass("danger")} disabled={busy} onClick={() => onDelete(set.id)}>
            Delete
          </button>
        </li>
      ))}
    </ul>
  );
}
