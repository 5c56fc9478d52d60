/**
 * One card of the Agreement page's summary. A figure (a count, κ) is set large; words (which judgments are
 * counted) in the body size, wrapping inside the card: set large they ran to the card's edge (issue 38 §5.12).
 */
export function Stat({
  label,
  value,
  ci,
  testId,
  kind = "figure",
}: {
  label: string;
  value: string;
  ci?: string;
  testId?: string;
  kind?: "figure" | "words";
}) {
  return (
    <div className="min-w-0 rounded-lg border border-slate-200 bg-white px-4 py-3">
      <div className="text-xs text-slate-600">{label}</div>
      <div
        className={kind === "figure" ? "text-xl font-semibold" : "text-sm font-medium break-words"}
        data-testid={testId}
        data-kind={kind}
      >
        {value}
      </div>
      {ci && <div className="text-xs text-slate-500">{ci}</div>}
    </div>
  );
}

/** Which judgments the report counts, in words: independent ones only, or every one with accepted judge values. */
export function JudgmentsCountedStat({ independentOnly }: { independentOnly: boolean }) {
  return (
    <Stat
      label="judgments counted"
      value={independentOnly ? "independent only" : "all (incl. accepted)"}
      testId="summary-independent"
      kind="words"
    />
  );
}
