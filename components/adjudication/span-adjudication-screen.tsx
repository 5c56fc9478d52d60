"use client";

import Link from "next/link";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, apiFetch, postJson } from "@/lib/api-client";
import { buttonClass } from "@/components/class-names";
import type { GoldSpanView, SpanAdjudicationItem, SpanAdjudicationLabel } from "@/lib/adjudication/span-adjudication";
import type { SpanRecord } from "@/lib/spans/span-types";
import { SpanReplay } from "@/components/spans/span-replay";
import type { Track } from "@/components/spans/span-timeline";
import type { TimelineSpan } from "@/components/spans/span-track";

/** As the API sends it (dates as text). */
type Item = Omit<SpanAdjudicationItem, "labels"> & {
  labels: (Omit<SpanAdjudicationLabel, "gold"> & {
    gold: (Omit<GoldSpanView, "history"> & { history: { version: number; at: string | Date; by: string }[] })[];
  })[];
};
type Label = Item["labels"][number];
type Gold = Label["gold"][number];
export interface SpanAdjudicationData {
  total: number;
  settled: number;
  items: Item[];
}

const input = "w-20 rounded-md border border-slate-300 px-2 py-1";

function frames(span: Pick<SpanRecord, "startFrame" | "endFrame" | "startS" | "endS">): string {
  return `frames ${span.startFrame}–${span.endFrame} · ${span.startS.toFixed(2)}–${span.endS.toFixed(2)} s`;
}

/** A span as a read-only timeline draws it. */
function onTimeline(span: SpanRecord, kind: TimelineSpan["kind"], author: string): TimelineSpan {
  const { id, label, startFrame, endFrame, boxes } = span;
  return { key: id, id, label, startFrame, endFrame, boxes, kind, author };
}

/**
 * The item's timeline lanes: one per reviewer (all their spans of the item, each naming its label), the judge run's
 * and the gold, read only.
 */
export function adjudicationTracks(item: Item): Track[] {
  const reviewers = new Map<string, { email: string; spans: TimelineSpan[] }>();
  for (const label of item.labels)
    for (const r of label.reviewers) {
      const lane = reviewers.get(r.reviewerId) ?? { email: r.email, spans: [] };
      lane.spans.push(...r.spans.map((s) => onTimeline(s, "other", r.email)));
      reviewers.set(r.reviewerId, lane);
    }
  const tracks: Track[] = [...reviewers].map(([id, lane]) => ({
    id: `reviewer-${id}`,
    title: lane.email,
    tooltip: lane.email,
    spans: lane.spans,
    editableLabel: null,
  }));
  if (item.judge)
    tracks.push({
      id: "judge",
      title: "judge",
      tooltip: `Judge run ${item.judge.runId}`,
      spans: item.judge.spans.map((s) => onTimeline(s, "judge", `judge run ${item.judge!.runId}`)),
      editableLabel: null,
    });
  const gold = item.labels.flatMap((l) => l.gold.map((g) => onTimeline(g, "other", "gold")));
  if (gold.length > 0) tracks.push({ id: "gold", title: "gold", spans: gold, editableLabel: null });
  return tracks;
}

/** What a failed save says: a 409 names the version it was changed to (the list is read again). */
function failure(error: unknown): string {
  if (error instanceof ApiError && error.status === 409) return `${error.message} The list is read again.`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The owner's adjudication of spans: each video's reviewers' spans per label, most disputed first, and the gold spans.
 * Accept a reviewer's span as gold, draw one by its frames, or change or withdraw a gold span at the version shown
 * (another owner's change since is a 409: the list is read again). Every gold change keeps its history.
 */
export function SpanAdjudicationScreen({
  projectId,
  query,
  initial,
}: {
  projectId: string;
  /** The list's query string (`task`, `state`), as the page read it. */
  query: string;
  initial: SpanAdjudicationData;
}) {
  const queryClient = useQueryClient();
  const key = ["span-adjudication", projectId, query];
  const list = useQuery({
    queryKey: key,
    queryFn: () => apiFetch<SpanAdjudicationData>(`/api/v1/projects/${projectId}/adjudication/spans?${query}`),
    initialData: initial,
    refetchOnWindowFocus: false,
  });
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const run = async (what: string, action: () => Promise<unknown>) => {
    setStatus({ text: `${what}…`, error: false });
    try {
      await action();
      setStatus({ text: `${what}: saved.`, error: false });
    } catch (error) {
      setStatus({ text: failure(error), error: true });
    }
    await queryClient.invalidateQueries({ queryKey: key });
  };
  const items = list.data.items;
  return (
    <div className="flex flex-col gap-4" data-testid="span-adjudication">
      <p className="text-sm" data-testid="span-adjudication-summary">
        {list.data.total} video{list.data.total === 1 ? "" : "s"} with reviewers&apos; spans, {list.data.settled} with
        gold spans{items.length < list.data.total ? ` (showing ${items.length})` : ""}.
      </p>
      {status && (
        <p
          role="status"
          className={`text-sm ${status.error ? "text-red-700" : "text-slate-600"}`}
          data-testid="span-adjudication-status"
        >
          {status.text}
        </p>
      )}
      {items.map((item) => (
        <section
          key={`${item.video.id}:${item.task}:${item.itemId}`}
          className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
          data-testid="span-adjudication-item"
        >
          <div className="flex flex-wrap items-baseline gap-3">
            <Link
              href={`/projects/${projectId}/videos/${item.video.id}`}
              className="font-medium text-indigo-700 underline"
            >
              {item.video.path}
            </Link>
            <span className="text-xs text-slate-500">
              {item.task}
              {item.itemId ? ` · ${item.itemId}` : ""} · disagreement {item.disagreement.toFixed(2)}
            </span>
          </div>
          <SpanReplay videoId={item.video.id} tracks={adjudicationTracks(item)} />
          {item.labels.map((label) => (
            <LabelBlock key={label.label} item={item} label={label} run={run} />
          ))}
        </section>
      ))}
    </div>
  );
}

type Run = (what: string, action: () => Promise<unknown>) => Promise<void>;

/** One label of a video: each reviewer's spans (accept one as gold), the gold spans (change, withdraw), a new one. */
function LabelBlock({ item, label, run }: { item: Item; label: Label; run: Run }) {
  const goldUrl = `/api/v1/videos/${encodeURIComponent(item.video.id)}/gold-spans`;
  return (
    <div
      className="flex flex-col gap-2 border-t border-slate-100 pt-2"
      data-testid="span-label"
      data-label={label.label}
    >
      <p className="text-sm">
        <span className="font-medium">{label.label}</span> · {label.name}{" "}
        <span className="text-xs text-slate-500">(disagreement {label.disagreement.toFixed(2)})</span>
      </p>
      <ul className="flex flex-col gap-1 text-sm">
        {label.reviewers.map((r) => (
          <li key={r.reviewerId} data-testid="reviewer-spans">
            <span className="text-slate-600">{r.email}:</span>{" "}
            {r.spans.length === 0 && <span className="text-slate-500">no span (says it is not there)</span>}
            {r.spans.map((s) => (
              <span key={s.id} className="mr-3 inline-flex items-baseline gap-1">
                {frames(s)}
                <button
                  type="button"
                  className="text-xs text-indigo-700 underline"
                  onClick={() => void run("Accepted as gold", () => postJson(goldUrl, { fromSpanId: s.id }))}
                  data-testid="accept-span"
                >
                  accept as gold
                </button>
              </span>
            ))}
          </li>
        ))}
      </ul>
      {label.gold.map((g) => (
        <GoldRow key={g.id} gold={g} run={run} />
      ))}
      <NewGold
        onAdd={(startFrame, endFrame) =>
          run("Gold span drawn", () =>
            postJson(goldUrl, { task: item.task, label: label.label, itemId: item.itemId, startFrame, endFrame }),
          )
        }
      />
    </div>
  );
}

/** A gold span: its frames and note editable, saved at the version shown; withdrawn; its history. */
function GoldRow({ gold, run }: { gold: Gold; run: Run }) {
  const [start, setStart] = useState(String(gold.startFrame));
  const [end, setEnd] = useState(String(gold.endFrame));
  const [note, setNote] = useState(gold.note);
  const url = `/api/v1/spans/${encodeURIComponent(gold.id)}`;
  const send = (method: "PATCH" | "DELETE", body: unknown) =>
    apiFetch(url, { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return (
    <div className="flex flex-col gap-1 rounded bg-amber-50 p-2 text-sm" data-testid="gold-span">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">Gold</span> {frames(gold)} · version {gold.version}
        <input className={input} value={start} onChange={(e) => setStart(e.target.value)} aria-label="Start frame" />
        <input className={input} value={end} onChange={(e) => setEnd(e.target.value)} aria-label="End frame" />
        <input
          className="w-48 rounded-md border border-slate-300 px-2 py-1"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          aria-label="Note"
        />
        <button
          type="button"
          className={buttonClass("secondary")}
          onClick={() =>
            void run("Gold span changed", () =>
              send("PATCH", {
                expectedVersion: gold.version,
                startFrame: Number(start),
                endFrame: Number(end),
                note,
              }),
            )
          }
          data-testid="save-gold-span"
        >
          Save
        </button>
        <button
          type="button"
          className="text-xs text-red-700 underline"
          onClick={() => void run("Gold span withdrawn", () => send("DELETE", { expectedVersion: gold.version }))}
          data-testid="withdraw-gold-span"
        >
          withdraw
        </button>
      </div>
      <p className="text-xs text-slate-500" data-testid="gold-history">
        History:{" "}
        {gold.history
          .map((h) => `v${h.version} ${new Date(h.at).toISOString().slice(0, 16).replace("T", " ")}`)
          .join(" · ")}
      </p>
    </div>
  );
}

/** Draws a gold span by its first and last frame (inclusive). */
function NewGold({ onAdd }: { onAdd: (startFrame: number, endFrame: number) => Promise<void> }) {
  const [start, setStart] = useState("");
  const [end, setEnd] = useState("");
  return (
    <form
      className="flex flex-wrap items-center gap-2 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        void onAdd(Number(start), Number(end));
      }}
    >
      <span className="text-slate-600">New gold span, frames</span>
      <input className={input} value={start} onChange={(e) => setStart(e.target.value)} aria-label="New start frame" />
      <input className={input} value={end} onChange={(e) => setEnd(e.target.value)} aria-label="New end frame" />
      <button
        type="submit"
        className={buttonClass("secondary")}
        disabled={start === "" || end === ""}
        data-testid="add-gold-span"
      >
        Add
      </button>
    </form>
  );
}
