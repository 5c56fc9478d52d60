// The run form's sweep: one run per input mode or per frame count, started together and compared side by side.
import Link from "next/link";
import type { RunSweep } from "@/lib/judge/runs/run-sweep.validation";

/** The sweeps the form offers; frame counts only for a task whose settings hold its frame count (`frames`). */
export const SWEEP_CHOICES: { id: string; label: string; sweep: RunSweep; needsFrames?: boolean }[] = [
  { id: "modes", label: "Input modes: images, video-frames", sweep: { inputModes: ["images", "video-frames"] } },
  {
    id: "modes-all",
    label: "Input modes: images, video-frames, video-file",
    sweep: { inputModes: ["images", "video-frames", "video-file"] },
  },
  { id: "frames", label: "Frame counts: 8, 16, 32, 64", sweep: { frameCounts: [8, 16, 32, 64] }, needsFrames: true },
];

/** Does the pipeline take its frame count from its settings (`frames`, a number)? */
export function takesFrameCount(defaults: unknown): boolean {
  return !!defaults && typeof defaults === "object" && typeof (defaults as { frames?: unknown }).frames === "number";
}

export interface SweepStarted {
  sweep: { field: string; values: (string | number)[] };
  runs: { id: string; videos: number }[];
  compareUrl: string;
}

/** The sweep select; a panel or samples run (an ensemble) is one run, so it shows none. */
export function RunSweepField({
  run,
  framesSwept,
}: {
  run: { sweepChoice: string; setSweep: (value: string) => void; judges: { judges: string } };
  framesSwept: boolean;
}) {
  if (run.judges.judges !== "one") return null;
  const value = run.sweepChoice;
  const setValue = run.setSweep;
  return (
    <label className="flex flex-col gap-1">
      Sweep
      <select
        className="rounded-md border border-slate-300 px-2 py-1.5"
        value={value}
        onChange={(e) => setValue(e.target.value)}
        data-testid="run-sweep"
      >
        <option value="">one run</option>
        {SWEEP_CHOICES.filter((c) => !c.needsFrames || framesSwept).map((c) => (
          <option key={c.id} value={c.id}>
            {c.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** What a sweep started, and the link to its runs side by side. */
export function SweepStartedNote({ started }: { started: SweepStarted }) {
  return (
    <span className="text-slate-600" data-testid="sweep-started">
      Started {started.runs.length} runs ({started.sweep.values.join(", ")}) on {started.runs[0]?.videos ?? 0} videos
      each:{" "}
      <Link className="text-indigo-700 underline" href={started.compareUrl} data-testid="sweep-compare-link">
        compare them side by side
      </Link>
      .
    </span>
  );
}
