import type { ProportionInterval } from "@/lib/tasks/qa/wilson-interval";
import { formatPercent } from "@/lib/format/numbers";

const percent = (v: number) => formatPercent(v);

/** An accuracy with its Wilson 95% interval and n; "—" when no question was decided. */
export function AccuracyCell({
  accuracy,
  testId,
  className = "",
}: {
  accuracy: ProportionInterval | null;
  testId?: string;
  className?: string;
}) {
  if (!accuracy) {
    return (
      <td className={`px-2 py-1 text-slate-500 ${className}`} data-testid={testId}>
        —
      </td>
    );
  }
  return (
    <td className={`px-2 py-1 tabular-nums ${className}`} data-testid={testId}>
      <span data-testid={testId ? `${testId}-value` : undefined}>{percent(accuracy.value)}</span>{" "}
      <span className="text-xs text-slate-500">
        [{percent(accuracy.lower)}, {percent(accuracy.upper)}]
      </span>{" "}
      <span className="text-xs text-slate-500" data-testid={testId ? `${testId}-n` : undefined}>
        n={accuracy.n}
      </span>
    </td>
  );
}

const OUTCOME_CLASS: Record<string, string> = {
  correct: "bg-emerald-100 text-emerald-800",
  wrong: "bg-red-100 text-red-800",
  unanswerable: "bg-amber-100 text-amber-900",
  pending: "bg-slate-100 text-slate-600",
};

export function OutcomeBadge({ outcome, testId }: { outcome: string | null; testId?: string }) {
  const value = outcome ?? "pending";
  return (
    <span
      className={`rounded px-1.5 py-0.5 text-xs font-medium ${OUTCOME_CLASS[value] ?? ""}`}
      data-testid={testId}
      data-outcome={value}
    >
      {value}
    </span>
  );
}

export { percent as formatPercent };
