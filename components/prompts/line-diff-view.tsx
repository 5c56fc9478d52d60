import type { DiffLine } from "@/lib/prompt-versions/line-diff";

/** A line diff as a table: old and new line numbers, then the line marked -, + or blank. */
export function LineDiffView({ diff, testId = "prompt-diff" }: { diff: readonly DiffLine[]; testId?: string }) {
  if (!diff.some((line) => line.kind !== "same"))
    return (
      <p className="text-sm text-slate-500" data-testid={`${testId}-none`}>
        No change from the shipped template.
      </p>
    );
  return (
    <div
      className="max-h-[32rem] overflow-auto rounded border border-slate-200 bg-white font-mono text-xs"
      data-testid={testId}
    >
      <table className="w-full border-collapse">
        <tbody>
          {diff.map((line, i) => (
            <tr
              key={i}
              className={
                line.kind === "added"
                  ? "bg-emerald-50 text-emerald-900"
                  : line.kind === "removed"
                    ? "bg-rose-50 text-rose-900"
                    : "text-slate-600"
              }
              data-testid={line.kind === "same" ? undefined : `diff-${line.kind}`}
            >
              <td className="w-10 select-none px-1 text-right text-slate-500">{line.oldLine ?? ""}</td>
              <td className="w-10 select-none px-1 text-right text-slate-500">{line.newLine ?? ""}</td>
              <td className="w-4 select-none px-1">
                {line.kind === "added" ? "+" : line.kind === "removed" ? "−" : ""}
              </td>
              <td className="whitespace-pre-wrap break-words px-1">{line.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
