"use client";

import type { Dispatch } from "react";
import type { Aspect } from "@/lib/pairwise/aspects";
import type { Side } from "@/lib/pairwise/verdicts";
import type { Draft, ReviewAction } from "./review-keys";

type Choice = Side | "tie_good" | "tie_bad";

const CHOICES: { choice: Choice; label: string; key: string }[] = [
  { choice: "left", label: "Left better", key: "1" },
  { choice: "right", label: "Right better", key: "2" },
  { choice: "tie_good", label: "Both good", key: "3" },
  { choice: "tie_bad", label: "Both bad", key: "4" },
];

/** A draft said of the sides as shown now ("left", "right" or a tie), for the buttons and the test ids. */
export function shownChoice(draft: Draft | undefined, aSide: Side): Choice | null {
  if (!draft) return null;
  if (draft.verdict === "tie_good" || draft.verdict === "tie_bad") return draft.verdict;
  const bSide: Side = aSide === "left" ? "right" : "left";
  return draft.verdict === "A" ? aSide : bSide;
}

function AspectRow({
  aspect,
  index,
  focused,
  draft,
  aSide,
  dispatch,
}: {
  aspect: Aspect;
  index: number;
  focused: boolean;
  draft: Draft | undefined;
  aSide: Side;
  dispatch: Dispatch<ReviewAction>;
}) {
  const chosen = shownChoice(draft, aSide);
  const strong = draft?.strength === 2;
  return (
    <li
      className={`rounded border p-2 ${focused ? "border-sky-500 bg-sky-50" : "border-slate-200"}`}
      data-testid="aspect"
      data-aspect={aspect.id}
      data-focused={focused}
      data-choice={chosen ?? ""}
      data-strong={strong}
      onClick={() => dispatch({ type: "focus", index })}
    >
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium text-slate-900">{aspect.label}</span>
        <span className="text-xs text-slate-500">
          {chosen ? `${chosen.replace("_", " ")}${strong ? " (much)" : ""}` : "—"}
        </span>
      </div>
      {aspect.guideline && <p className="mt-1 text-xs text-slate-600">{aspect.guideline}</p>}
      <div className="mt-2 flex flex-wrap gap-1">
        {CHOICES.map(({ choice, label, key }) => (
          <button
            key={choice}
            type="button"
            aria-pressed={chosen === choice && !strong}
            className={`rounded border px-2 py-0.5 text-xs ${chosen === choice && !strong ? "border-sky-600 bg-sky-600 text-white" : "border-slate-300 bg-white"}`}
            onClick={() => dispatch({ type: "verdict", aspect: aspect.id, side: choice })}
            data-testid={`choose-${choice}`}
          >
            {label} <kbd className="font-mono opacity-70">{key}</kbd>
          </button>
        ))}
        {aspect.levels === 5 &&
          (["left", "right"] as const).map((side) => (
            <button
              key={`strong-${side}`}
              type="button"
              aria-pressed={chosen === side && strong}
              className={`rounded border px-2 py-0.5 text-xs ${chosen === side && strong ? "border-sky-600 bg-sky-600 text-white" : "border-slate-300 bg-white"}`}
              onClick={() => dispatch({ type: "verdict", aspect: aspect.id, side, strong: true })}
              data-testid={`choose-strong-${side}`}
            >
              {side === "left" ? "Left much better" : "Right much better"}{" "}
              <kbd className="font-mono opacity-70">⇧{side === "left" ? "1" : "2"}</kbd>
            </button>
          ))}
      </div>
    </li>
  );
}

/** Each aspect with its guideline and a button per verdict; the focused one takes the verdict keys. */
export function AspectVerdicts({
  aspects,
  focus,
  drafts,
  aSide,
  dispatch,
}: {
  aspects: Aspect[];
  focus: number;
  drafts: Record<string, Draft | undefined>;
  aSide: Side;
  dispatch: Dispatch<ReviewAction>;
}) {
  return (
    <ol className="space-y-2" data-testid="aspects">
      {aspects.map((aspect, index) => (
        <AspectRow
          key={aspect.id}
          aspect={aspect}
          index={index}
          focused={index === focus}
          draft={drafts[aspect.id]}
          aSide={aSide}
          dispatch={dispatch}
        />
      ))}
    </ol>
  );
}
