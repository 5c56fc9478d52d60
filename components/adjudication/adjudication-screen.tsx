"use client";

import Link from "next/link";
import { useCallback, useEffect, useRef, useState, type RefObject } from "react";
import { ApiError, apiFetch } from "@/lib/api-client";
import { buttonClass } from "@/components/class-names";
import { isTypingTarget } from "@/components/is-typing-target";
import { NoPrompt } from "@/components/videos/no-prompt";
import { typeDigit, type TypedNumber } from "@/lib/queues/score-keys";
import type { AdjudicationItem, GoldView } from "@/lib/adjudication/adjudication";
import type { GoldInput } from "@/lib/adjudication/adjudication.validation";

type Item = Omit<AdjudicationItem, "gold"> & {
  gold: (Omit<GoldView, "updatedAt" | "history"> & { updatedAt: string | Date }) | null;
};

const input = "rounded-md border border-slate-300 px-2 py-1.5";

function scaleHint(scale: Item["scale"]): string {
  return scale.kind === "categorical"
    ? scale.values.map((v) => `${v.value} ${v.label}`).join(" · ")
    : `${scale.min}–${scale.max}`;
}

function valueLabel(scale: Item["scale"], value: number): string {
  return scale.kind === "categorical"
    ? (scale.values.find((v) => v.value === value)?.label ?? String(value))
    : String(value);
}

/** What a failed gold save tells the owner: a conflict (someone saved first) says to reload. */
function goldSaveErrorMessage(error: unknown): string {
  return error instanceof ApiError && error.status === 409
    ? `${error.message} Reload the page to see the current gold.`
    : error instanceof Error
      ? error.message
      : String(error);
}

/**
 * The owner's adjudication screen: one disputed target at a time with every reviewer's value, the
 * judge's and the frames the judge saw; a gold value and a note. Keyboard first: digits type the
 * value (a categorical target's value keys pick it), Enter saves and moves on, j/k move.
 */
export function AdjudicationScreen({ projectId, initialItems }: { projectId: string; initialItems: Item[] }) {
  const [items, setItems] = useState(initialItems);
  const [index, setIndex] = useState(0);
  const [value, setValue] = useState("");
  const [note, setNote] = useState("");
  const [status, setStatus] = useState<{ kind: "idle" | "saving" | "saved" | "error"; message?: string }>({
    kind: "idle",
  });
  const typed = useRef<TypedNumber | null>(null);
  const item = items[index] ?? null;

  // Each item opens on its gold (to change it), else empty: the owner decides, nothing is prefilled from reviewers or the judge.
  useEffect(() => {
    setValue(item?.gold ? String(item.gold.value) : "");
    setNote(item?.gold?.note ?? "");
    typed.current = null;
  }, [item?.targetKey]); // eslint-disable-line react-hooks/exhaustive-deps

  const move = useCallback(
    (by: number) => setIndex((i) => Math.min(Math.max(i + by, 0), Math.max(items.length - 1, 0))),
    [items.length],
  );

  const save = useCallback(async () => {
    if (!item) return;
    const number = Number(value);
    if (value.trim() === "" || !Number.isFinite(number)) {
      setStatus({ kind: "error", message: "Type the gold value first." });
      return;
    }
    setStatus({ kind: "saving" });
    try {
      const gold = await apiFetch<NonNullable<Item["gold"]>>(`/api/v1/projects/${projectId}/gold`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          targetKey: item.targetKey,
          value: number,
          note,
          ...(item.gold ? { expectedVersion: item.gold.version } : {}),
        } satisfies GoldInput),
      });
      setItems((all) => all.map((x) => (x.targetKey === item.targetKey ? { ...x, gold } : x)));
      setStatus({ kind: "saved", message: `Gold saved: ${valueLabel(item.scale, number)}.` });
      const nextOpen = items.findIndex((x, i) => i > index && !x.gold);
      if (nextOpen >= 0) setIndex(nextOpen);
      else move(1);
    } catch (error) {
      setStatus({ kind: "error", message: goldSaveErrorMessage(error) });
    }
  }, [item, value, note, projectId, items, index, move]);

  useAdjudicationKeys(item, { move, save, setValue, typed });

  if (!item) return null;
  return (
    <div className="grid gap-4 lg:grid-cols-[16rem_1fr]" data-testid="adjudication-screen">
      <DisputedList items={items} index={index} onPick={setIndex} />
      <section
        className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
        data-testid="adjudication-item"
        data-target-key={item.targetKey}
      >
        <ItemHeading projectId={projectId} item={item} position={index + 1} count={items.length} />
        <p className="text-sm text-slate-600">{item.definition}</p>
        <ItemMedia item={item} />
        <ReviewValues item={item} />
        <GoldForm
          item={item}
          value={value}
          note={note}
          saving={status.kind === "saving"}
          onValue={setValue}
          onNote={setNote}
          onSave={() => void save()}
        />
        {item.gold && <CurrentGold scale={item.scale} gold={item.gold} />}
        <p
          role="status"
          className={`text-sm ${status.kind === "error" ? "text-red-700" : "text-slate-600"}`}
          data-testid="adjudication-status"
        >
          {status.message ?? ""}
        </p>
        <p className="text-xs text-slate-500">
          Keys: digits type the value · Enter saves and moves to the next open target · j / k next / previous.
        </p>
      </section>
    </div>
  );
}

/**
 * The screen's keys: Enter saves (outside the note's text), and outside text fields j / k move and digits type the
 * value (a categorical target's value keys pick it; on a numeric scale, digits in the chain window make one number).
 */
function useAdjudicationKeys(
  item: Item | null,
  {
    move,
    save,
    setValue,
    typed,
  }: {
    move: (by: number) => void;
    save: () => Promise<void>;
    setValue: (value: string) => void;
    typed: RefObject<TypedNumber | null>;
  },
) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || !item) return;
      if (event.key === "Enter" && !(event.target instanceof HTMLTextAreaElement)) {
        event.preventDefault();
        void save();
        return;
      }
      if (isTypingTarget(event.target)) return;
      if (event.key === "j") move(1);
      else if (event.key === "k") move(-1);
      else if (/^[0-9]$/.test(event.key)) {
        const digit = Number(event.key);
        if (item.scale.kind === "categorical") {
          if (item.scale.values.some((v) => v.value === digit)) setValue(String(digit));
        } else {
          const next = typeDigit(typed.current, item.targetKey, digit, event.timeStamp, item.scale);
          if (next) {
            typed.current = next;
            setValue(String(next.value));
          }
        }
      } else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [item, move, save, setValue, typed]);
}

/** The open target's heading: its label, the kind of dispute, its video and where it sits in the list. */
function ItemHeading({
  projectId,
  item,
  position,
  count,
}: {
  projectId: string;
  item: Item;
  position: number;
  count: number;
}) {
  return (
    <div className="flex flex-wrap items-baseline gap-3">
      <h2 className="text-lg font-semibold">{item.label}</h2>
      <span className="rounded bg-amber-100 px-1.5 py-0.5 text-xs text-amber-900" data-testid="disagreement-kind">
        {item.disagreement === "tie" ? "tie" : "spread above the gap"}
      </span>
      <Link href={`/projects/${projectId}/videos/${item.video.id}`} className="text-sm text-indigo-700 underline">
        {item.video.path}
      </Link>
      <span className="text-xs text-slate-500">
        {position} of {count}
      </span>
    </div>
  );
}

/** The gold already set on a target: its value, who set it, its version and note. */
function CurrentGold({ scale, gold }: { scale: Item["scale"]; gold: NonNullable<Item["gold"]> }) {
  return (
    <p className="text-sm text-slate-600" data-testid="current-gold">
      Gold: <strong>{valueLabel(scale, gold.value)}</strong> by {gold.adjudicator.email ?? gold.adjudicator.id} (version{" "}
      {gold.version}){gold.note ? ` — ${gold.note}` : ""}
    </p>
  );
}

/** The disputed targets, each with its video, kind of dispute and gold (when set); a click opens one. */
function DisputedList({ items, index, onPick }: { items: Item[]; index: number; onPick: (index: number) => void }) {
  return (
    <ol className="flex max-h-[70vh] flex-col gap-1 overflow-y-auto text-sm" aria-label="Disputed targets">
      {items.map((x, i) => (
        <li key={x.targetKey}>
          <button
            type="button"
            onClick={() => onPick(i)}
            className={`w-full rounded px-2 py-1 text-left ${i === index ? "bg-indigo-100 font-medium" : "hover:bg-slate-100"}`}
            aria-current={i === index ? "true" : undefined}
          >
            <span className="block truncate">{x.video.path}</span>
            <span className="text-xs text-slate-500">
              {x.label} · {x.disagreement}
              {x.gold ? ` · gold ${valueLabel(x.scale, x.gold.value)}` : ""}
            </span>
          </button>
        </li>
      ))}
    </ol>
  );
}

/** What the gold is about: the prompt, the video (a frame the judge saw seeks it there) and those frames. */
function ItemMedia({ item }: { item: Item }) {
  const player = useRef<HTMLVideoElement>(null);
  return (
    <div className="grid gap-3 md:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <video
        key={item.video.id}
        ref={player}
        src={`/api/v1/videos/${encodeURIComponent(item.video.id)}/file`}
        controls
        // Loaded when played: the card is one of many, and the first frame the judge saw stands in until then.
        preload="none"
        poster={item.frames[0]?.url}
        className="max-h-[45vh] w-full rounded-lg bg-black"
        data-testid="adjudication-player"
      />
      <div className="flex min-w-0 flex-col gap-2">
        <p className="text-sm" data-testid="adjudication-prompt">
          <span className="block text-xs font-medium uppercase tracking-wide text-slate-500">Prompt</span>
          <span className="whitespace-pre-wrap break-words text-slate-900">{item.video.prompt ?? <NoPrompt />}</span>
        </p>
        {item.frames.length > 0 && (
          <div className="flex flex-wrap gap-2" aria-label="Frames the judge saw">
            {item.frames.map((f) => (
              <button
                key={f.id}
                type="button"
                onClick={() => {
                  if (!player.current) return;
                  player.current.pause();
                  player.current.currentTime = f.timestampS;
                }}
                title={`Show the video at ${f.timestampS.toFixed(2)} s`}
              >
                {/* eslint-disable-next-line @next/next/no-img-element */}
                <img
                  src={f.url}
                  alt={`frame ${f.index} at ${f.timestampS.toFixed(2)} s`}
                  className="h-28 max-w-none rounded border border-slate-200"
                />
              </button>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

/** Every reviewer's value (and note), and the judge's. */
function ReviewValues({ item }: { item: Item }) {
  return (
    <table className="text-sm" data-testid="adjudication-values">
      <tbody>
        {item.reviews.map((r) => (
          <tr key={r.reviewerId}>
            <th className="pr-3 text-left font-normal text-slate-600">{r.email}</th>
            <td className="pr-3 font-medium" data-testid="reviewer-value">
              {r.display}
              {r.acceptedJudge ? " (accepted judge)" : ""}
            </td>
            <td className="text-slate-500">{r.note}</td>
          </tr>
        ))}
        <tr>
          <th className="pr-3 text-left font-normal text-slate-600">judge</th>
          <td className="pr-3 font-medium" data-testid="judge-value">
            {item.judge?.display ?? "—"}
          </td>
          <td />
        </tr>
      </tbody>
    </table>
  );
}

/** The gold value (a categorical target's named values, or a number) and a note, saved with Enter or the button. */
function GoldForm({
  item,
  value,
  note,
  saving,
  onValue,
  onNote,
  onSave,
}: {
  item: Item;
  value: string;
  note: string;
  saving: boolean;
  onValue: (value: string) => void;
  onNote: (note: string) => void;
  onSave: () => void;
}) {
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
    >
      <label className="flex flex-col gap-1 text-sm">
        Gold value <span className="text-xs text-slate-500">({scaleHint(item.scale)})</span>
        {item.scale.kind === "categorical" ? (
          <select className={input} value={value} onChange={(e) => onValue(e.target.value)} data-testid="gold-value">
            <option value="">—</option>
            {item.scale.values.map((v) => (
              <option key={v.value} value={String(v.value)}>
                {v.value} {v.label}
              </option>
            ))}
          </select>
        ) : (
          <input
            className={`${input} w-24`}
            inputMode="decimal"
            value={value}
            onChange={(e) => onValue(e.target.value)}
            data-testid="gold-value"
          />
        )}
      </label>
      <label className="flex grow flex-col gap-1 text-sm">
        Note
        <input
          className={input}
          value={note}
          onChange={(e) => onNote(e.target.value)}
          placeholder="why this is the right value"
          data-testid="gold-note"
        />
      </label>
      <button type="submit" className={buttonClass()} disabled={saving}>
        Save gold
      </button>
    </form>
  );
}
