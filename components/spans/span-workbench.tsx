"use client";

/**
 * The span editor: a frame-accurate player with the box overlay, and the span timeline under it.
 *
 * Props (the video page embeds it; the review screen can embed it the same way):
 * - `videoId`, `projectId`: the video (its file, frame times, frame sets and spans are read from the API).
 * - `task`: the span task whose labels give the tracks (a task id, or PROJECT_SPAN_TASK with `labels`).
 * - `currentUserId`: the caller; their own reviewer spans (of `itemId`) are editable, everyone else's are shown dimmed
 *   and the judge's on their own track. While the caller reviews the video blind the API returns only their own.
 * - `itemId?`: the judged item the spans are about ('' for the video itself); `queueId?`: the queue they are marked in.
 * - `readOnly?`: spans are shown, nothing is marked (viewers).
 * - `onSpansChange?(spans)`: every span shown, own ones as edited on screen (a queue's localise step can count them).
 * - `labels?`: the labels when the caller has them already (the project's own list); else from the task catalogue.
 * - `keyScope?`: "page" (keys act anywhere on the page: the video page) or "focus" (default: only while focus is inside
 *   the editor, so a host screen's keys keep theirs; see timeline-keys.ts).
 * - `videoRef?`: a ref the host shares with its own strip (seeking from a key frame seeks this player).
 * - `markLabels?`: the label ids `t` cycles and new spans take (a queue's asked labels); default: every label.
 * - `runId?`: the judge run the host shows: only its judge spans are drawn (a lane per label) and the key-frame ticks
 *   are the frames it judged (its frame set); without it, every run's judge spans and the video's latest frame set.
 * - `runPending?`: the host has yet to learn which run it shows (its scores are loading): the spans wait, so every
 *   run's judge spans never flash before the shown run's.
 * - `keyFrameTicks?`: false: no key-frame ticks, and the video's record (which names its path, so its generator) is
 *   never read: a blind pair review embeds the editor so (default true).
 * The keys are TIMELINE_KEYS; a host with its own help overlay lists them from there.
 */
import { useQuery } from "@tanstack/react-query";
import {
  type Dispatch,
  type RefObject,
  type SetStateAction,
  useCallback,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from "react";
import { KeyListOverlay } from "@/components/key-list-overlay";
import { useTaskCatalogue } from "@/components/tasks/task-catalogue-context";
import { keyFramesAndClusters } from "@/lib/judge/media/frame-scopes";
import { type FrameTimes, frameAtTime } from "@/lib/frames/frame-times";
import { type SpanLabel, taskSpanLabels } from "@/lib/spans/span-labels";
import type { SpanAuthorKind, SpanRecord } from "@/lib/spans/span-types";
import { BoxOverlay } from "./box-overlay";
import { FramePlayer, type LoopRange, seekToFrame, stepFrame } from "./frame-player";
import { createPlayhead, type Playhead } from "./playhead";
import { fetchSpans, frameTimesQuery, fetchVideoFrameSets, spanEditorSpansKey } from "./span-api";
import {
  initialTimelineState,
  shownOwnSpans,
  type TimelineAction,
  timelineReducer,
  type TimelineState,
} from "./span-edits";
import { type FrameTicks, SpanTimeline, type Track } from "./span-timeline";
import type { TimelineSpan } from "./span-track";
import { type KeyScope, TIMELINE_KEYS, useTimelineKeys } from "./timeline-keys";
import { fullView, type TimelineView, ZOOM_STEP, zoomAbout } from "./timeline-math";
import { useSpanSaves } from "./use-span-saves";
import { WorkbenchBar, WorkbenchStatus } from "./workbench-bar";

/** A span as `onSpansChange` reports it. */
export interface ShownSpan {
  key: string;
  id: string | null;
  label: string;
  startFrame: number;
  endFrame: number;
  authorKind: SpanAuthorKind;
  authorId: string;
  own: boolean;
  status: string;
}

export interface SpanWorkbenchProps {
  videoId: string;
  projectId: string;
  task: string;
  currentUserId: string;
  itemId?: string;
  queueId?: string;
  readOnly?: boolean;
  onSpansChange?: (spans: ShownSpan[]) => void;
  labels?: SpanLabel[];
  keyScope?: KeyScope;
  videoRef?: RefObject<HTMLVideoElement | null>;
  markLabels?: readonly string[];
  runId?: string | null;
  runPending?: boolean;
  keyFrameTicks?: boolean;
}

/** The caller's own spans, of any item (those of another item are kept, and saved, but not drawn). */
function isOwn(span: SpanRecord, userId: string): boolean {
  return span.authorKind === "reviewer" && span.authorId === userId;
}

/** The frame set whose key frames the timeline ticks: the one the shown run judged, else the video's latest. */
export function ticksFrameSet<T extends { id: string }>(frameSets: readonly T[], judgedId: string | null): T | null {
  return frameSets.find((set) => set.id === judgedId) ?? frameSets.at(-1) ?? null;
}

/** The frame set's key frames and clusters as frames of the video (each frame's time mapped with frameAtTime). */
export function frameTicksOf(
  frames: readonly { index: number; timestampS: number; isKeyFrame: boolean; cluster: number | null }[],
  times: FrameTimes,
): FrameTicks {
  const { keyFrames, clusters } = keyFramesAndClusters(frames);
  const at = (t: number) => frameAtTime(times, t);
  return {
    keyFrames: keyFrames.map((f) => at(f.timestampS)),
    clusters: clusters
      .filter((members) => members.length > 1)
      .map((members) => {
        const framesOf = members.map((m) => at(m.timestampS));
        return { from: Math.min(...framesOf), to: Math.max(...framesOf) };
      }),
  };
}

/**
 * Who marked a span, as its tooltip names them: a reviewer by name only when the API sent it (to owners, outside
 * blind review: lib/spans/span-visibility.ts), else "another reviewer".
 */
export function spanAuthorName(
  span: Pick<SpanRecord, "authorKind" | "authorId" | "authorName" | "runId" | "labelSetId">,
): string {
  switch (span.authorKind) {
    case "reviewer":
      return span.authorName ?? "another reviewer";
    case "gold":
      return "gold";
    case "judge":
      return span.runId ? `judge run ${span.runId}` : "judge";
    case "label_set":
      return `label set ${span.labelSetId ?? span.authorId}`;
  }
}

/**
 * The judge's lanes, one per label it marked (in the task's label order, then any other), each named by the label's
 * code with its full name in the tooltip: one label's spans never stack over another's.
 */
export function judgeTracks(judge: readonly TimelineSpan[], labels: readonly SpanLabel[]): Track[] {
  const names = new Map(labels.map((l) => [l.id, l.label]));
  const order = new Map(labels.map((l, i) => [l.id, i]));
  const marked = [...new Set(judge.map((s) => s.label))].sort(
    (a, b) => (order.get(a) ?? labels.length) - (order.get(b) ?? labels.length) || a.localeCompare(b),
  );
  return marked.map((label) => ({
    id: `judge-${label}`,
    title: `judge · ${label}`,
    tooltip: `The judge's spans of ${label}${names.has(label) ? ` (${names.get(label)})` : ""}`,
    spans: judge.filter((s) => s.label === label),
    editableLabel: null,
  }));
}

/** The tracks: the judge's (a lane per label it marked), then one per label; others' spans beside one's own. */
function useTracks(
  state: TimelineState,
  serverSpans: readonly SpanRecord[],
  labels: readonly SpanLabel[],
  mine: (span: SpanRecord) => boolean,
  readOnly: boolean,
  itemId: string,
): { tracks: Track[]; others: Map<string, SpanRecord>; shown: ShownSpan[] } {
  return useMemo(() => {
    const ownHere = shownOwnSpans(state).filter((s) => s.itemId === itemId);
    const own: TimelineSpan[] = ownHere.map((s) => ({
      key: s.key,
      id: s.id,
      ...s.draft,
      kind: "own",
      author: "you",
      status: s.status,
    }));
    const others = new Map<string, SpanRecord>();
    for (const span of serverSpans) if (!mine(span)) others.set(span.id, span);
    const asTimeline = (s: SpanRecord): TimelineSpan => ({
      key: s.id,
      id: s.id,
      label: s.label,
      startFrame: s.startFrame,
      endFrame: s.endFrame,
      boxes: s.boxes,
      kind: s.authorKind === "judge" ? "judge" : "other",
      author: spanAuthorName(s),
    });
    const rest = [...others.values()].map(asTimeline);
    const judge = rest.filter((s) => s.kind === "judge");
    const byLabel = [...own, ...rest.filter((s) => s.kind !== "judge")];
    const tracks: Track[] = judgeTracks(judge, labels);
    // Lanes are named by the label's code (names are long and alike: "Other hallucination" twice); the name is the tooltip.
    for (const label of labels)
      tracks.push({
        id: label.id,
        title: label.id,
        tooltip: `${label.id}: ${label.label}`,
        spans: byLabel.filter((s) => s.label === label.id),
        editableLabel: readOnly ? null : label.id,
      });
    const listed = new Set(labels.map((l) => l.id));
    const unlisted = byLabel.filter((s) => !listed.has(s.label));
    if (unlisted.length > 0)
      tracks.push({ id: "unlisted", title: "Other labels", spans: unlisted, editableLabel: null });
    const shown: ShownSpan[] = [
      ...ownHere.map((s) => ({
        key: s.key,
        id: s.id,
        label: s.draft.label,
        startFrame: s.draft.startFrame,
        endFrame: s.draft.endFrame,
        authorKind: "reviewer" as const,
        authorId: "",
        own: true,
        status: s.status,
      })),
      ...[...others.values()].map((s) => ({
        key: s.id,
        id: s.id,
        label: s.label,
        startFrame: s.startFrame,
        endFrame: s.endFrame,
        authorKind: s.authorKind,
        authorId: s.authorId,
        own: false,
        status: "saved",
      })),
    ];
    return { tracks, others, shown };
  }, [state, serverSpans, labels, mine, readOnly, itemId]);
}

/** The keys: player and view keys here, span keys through the reducer (in order, none lost). */
function useWorkbenchKeys(input: {
  scope: KeyScope;
  root: RefObject<HTMLElement | null>;
  video: RefObject<HTMLVideoElement | null>;
  times: FrameTimes | null;
  playhead: Playhead;
  labels: readonly SpanLabel[];
  readOnly: boolean;
  itemId: string;
  others: ReadonlyMap<string, SpanRecord>;
  dispatch: (action: TimelineAction) => void;
  setView: React.Dispatch<React.SetStateAction<TimelineView>>;
  setHelp: React.Dispatch<React.SetStateAction<boolean>>;
}) {
  const { scope, root, video, times, playhead, dispatch, setView, setHelp } = input;
  useTimelineKeys(scope, root, (name) => {
    const element = video.current;
    const frameCount = times?.timesS.length ?? 0;
    if (name === "," || name === ".") {
      if (element && times) stepFrame(element, times, playhead, name === "." ? 1 : -1);
      return true;
    }
    if (name === " ") {
      if (element) {
        if (element.paused) void element.play().catch(() => {});
        else element.pause();
      }
      return true;
    }
    if (name === "+" || name === "=" || name === "-" || name === "_") {
      const factor = name === "+" || name === "=" ? ZOOM_STEP : 1 / ZOOM_STEP;
      setView((v) => zoomAbout(v, factor, (playhead.target ?? playhead.frame) + 0.5, frameCount));
      return true;
    }
    if (name === "?") {
      setHelp((h) => !h);
      return true;
    }
    // Esc stops the player with the loop: a loop cleared while the video plays on would leave it running past the span.
    if (name === "Escape") element?.pause();
    if (!times) return false;
    dispatch({
      type: "key",
      key: name,
      context: {
        playhead: playhead.target ?? playhead.frame,
        frameCount,
        labels: input.labels,
        readOnly: input.readOnly,
        itemId: input.itemId,
        others: input.others,
      },
    });
    return true;
  });
}

/** The timeline's view, the whole video until zoomed; a video of another length starts from its whole again. */
export function useFrameView(frameCount: number): [TimelineView, Dispatch<SetStateAction<TimelineView>>] {
  const [held, setHeld] = useState<{ count: number; view: TimelineView }>({ count: 0, view: fullView(0) });
  const view = held.count === frameCount ? held.view : fullView(frameCount);
  const setView = useCallback(
    (update: SetStateAction<TimelineView>) =>
      setHeld((h) => {
        const current = h.count === frameCount ? h.view : fullView(frameCount);
        return { count: frameCount, view: typeof update === "function" ? update(current) : update };
      }),
    [frameCount],
  );
  return [view, setView];
}

/** `l`: seek to the loop's start and play; the player repeats it until paused. */
function useLoop(
  loop: TimelineState["loop"],
  video: RefObject<HTMLVideoElement | null>,
  times: FrameTimes | null,
  playhead: Playhead,
  range: RefObject<LoopRange | null>,
) {
  useEffect(() => {
    const element = video.current;
    if (!loop || !element || !times) {
      range.current = null;
      return;
    }
    seekToFrame(element, times, playhead, loop.startFrame);
    void element
      .play()
      .then(() => {
        range.current = { startFrame: loop.startFrame, endFrame: loop.endFrame };
      })
      .catch(() => {});
  }, [loop, video, times, playhead, range]);
}

/** The labels `t` cycles and new spans take: the ones asked (in the task's order), else every label. */
function useMarkableLabels(labels: readonly SpanLabel[], asked: readonly string[] | undefined): readonly SpanLabel[] {
  const key = asked?.join("\n");
  return useMemo(() => {
    const ids = key === undefined ? null : new Set(key.split("\n"));
    const chosen = ids ? labels.filter((l) => ids.has(l.id)) : [];
    return chosen.length > 0 ? chosen : labels;
  }, [labels, key]);
}

/**
 * The video's frame times (read once), its spans of the task (with when the list was asked for; beside `runId`, only
 * that run's judge spans) and frame sets.
 */
function useEditorData({
  videoId,
  task,
  runId,
  runPending = false,
  keyFrameTicks = true,
}: Pick<SpanWorkbenchProps, "videoId" | "task" | "runId" | "runPending" | "keyFrameTicks">) {
  const times = useQuery(frameTimesQuery(videoId));
  const spans = useQuery({
    queryKey: [...spanEditorSpansKey(videoId, task), runId ?? "every run"],
    queryFn: async () => {
      const listedAt = Date.now();
      return { ...(await fetchSpans(videoId, task, runId)), listedAt };
    },
    enabled: !runPending,
  });
  const video = useQuery({
    queryKey: ["span-editor", "frame-sets", videoId],
    queryFn: () => fetchVideoFrameSets(videoId),
    enabled: keyFrameTicks,
  });
  return { times, spans, video };
}

/** The labels the workbench shows: the ones given, else the task's declared span labels. */
function useSpanLabels(given: SpanLabel[] | undefined, task: string): SpanLabel[] {
  const catalogue = useTaskCatalogue();
  return useMemo(() => {
    if (given) return given;
    const declared = catalogue.findTask(task);
    return declared ? taskSpanLabels(declared) : [];
  }, [given, catalogue, task]);
}

/** The timeline's key-frame and cluster ticks, from the frame set the judge used (else the video's latest). */
function useFrameTicks(
  video: Awaited<ReturnType<typeof fetchVideoFrameSets>> | undefined,
  times: FrameTimes | undefined,
  judgedFrameSetId: string | null,
): FrameTicks {
  return useMemo(() => {
    const frames = ticksFrameSet(video?.frameSets ?? [], judgedFrameSetId)?.frames ?? [];
    return times ? frameTicksOf(frames, times) : { keyFrames: [], clusters: [] };
  }, [video, times, judgedFrameSetId]);
}

export function SpanWorkbench(props: SpanWorkbenchProps) {
  const { videoId, task, currentUserId, readOnly = false, keyScope = "focus" } = props;
  const itemId = props.itemId ?? "";
  const labels = useSpanLabels(props.labels, task);
  const markable = useMarkableLabels(labels, props.markLabels);
  const { times, spans, video } = useEditorData(props);
  const [state, dispatch] = useReducer(timelineReducer, initialTimelineState);
  const [playhead] = useState(createPlayhead);
  const ownVideoRef = useRef<HTMLVideoElement | null>(null);
  const videoRef = props.videoRef ?? ownVideoRef;
  const loopRange = useRef<LoopRange | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const [help, setHelp] = useState(false);
  const frameCount = times.data?.timesS.length ?? 0;
  const [view, setView] = useFrameView(frameCount);

  const mine = useMemo(() => (span: SpanRecord) => isOwn(span, currentUserId) && !readOnly, [currentUserId, readOnly]);
  useEffect(() => dispatch({ type: "reset" }), [task]);
  const serverSpans = useMemo(() => spans.data?.spans ?? [], [spans.data]);
  const listedAt = spans.data?.listedAt ?? 0;
  useEffect(() => dispatch({ type: "load", spans: serverSpans.filter(mine), listedAt }), [serverSpans, mine, listedAt]);
  useSpanSaves(state, dispatch, { videoId, task, queueId: props.queueId });
  const { tracks, others, shown } = useTracks(state, serverSpans, labels, mine, readOnly, itemId);
  const onSpansChange = props.onSpansChange;
  useEffect(() => onSpansChange?.(shown), [shown, onSpansChange]);
  useWorkbenchKeys({
    scope: keyScope,
    root,
    video: videoRef,
    times: times.data ?? null,
    playhead,
    labels: markable,
    readOnly,
    itemId,
    others,
    dispatch,
    setView,
    setHelp,
  });
  useLoop(state.loop, videoRef, times.data ?? null, playhead, loopRange);

  const ticks = useFrameTicks(video.data, times.data, spans.data?.frameSetId ?? null);
  const selectedOwn = state.own.find((s) => s.key === state.selected && !s.withdrawing) ?? null;
  const selectedOther = state.selected ? others.get(state.selected) : undefined;

  return (
    <div
      ref={root}
      tabIndex={keyScope === "focus" ? 0 : undefined}
      className="flex flex-col gap-2 outline-none focus-visible:ring-2 focus-visible:ring-indigo-300"
      data-testid="span-workbench"
      data-key-scope={keyScope}
    >
      <SpanPlayer
        videoId={videoId}
        times={times.data ?? null}
        playhead={playhead}
        videoRef={videoRef}
        loop={loopRange}
        boxSpan={selectedOwn?.draft ?? selectedOther ?? null}
        editableKey={selectedOwn && !readOnly ? selectedOwn.key : null}
        dispatch={dispatch}
      />
      <WorkbenchBar
        state={state}
        labels={markable}
        readOnly={readOnly}
        blind={spans.data?.blind ?? false}
        dispatch={dispatch}
        onHelp={keyScope === "page" ? () => setHelp((h) => !h) : null}
      />
      <TimelineArea
        times={times}
        spansError={spans.error}
        view={view}
        setView={setView}
        playhead={playhead}
        tracks={tracks}
        ticks={ticks}
        state={state}
        dispatch={dispatch}
        videoRef={videoRef}
        itemId={itemId}
      />
      <WorkbenchStatus
        state={state}
        labels={labels}
        selectedOwn={selectedOwn}
        selectedOther={selectedOther ?? null}
        dispatch={dispatch}
      />
      <KeyListOverlay
        open={help}
        onClose={() => setHelp(false)}
        keys={TIMELINE_KEYS}
        title="Timeline keys"
        testId="timeline-keys-help"
      />
    </div>
  );
}

/** The video with the selected span's boxes over it, editable when the span is the reviewer's own. */
function SpanPlayer({
  videoId,
  times,
  playhead,
  videoRef,
  loop,
  boxSpan,
  editableKey,
  dispatch,
}: {
  videoId: string;
  times: FrameTimes | null;
  playhead: Playhead;
  videoRef: RefObject<HTMLVideoElement | null>;
  loop: RefObject<LoopRange | null>;
  boxSpan: Parameters<typeof BoxOverlay>[0]["span"];
  /** The own span whose boxes may be drawn (null: none, or read-only). */
  editableKey: string | null;
  dispatch: (action: TimelineAction) => void;
}) {
  return (
    <FramePlayer
      videoUrl={`/api/v1/videos/${encodeURIComponent(videoId)}/file`}
      times={times}
      playhead={playhead}
      videoRef={videoRef}
      loop={loop}
    >
      <BoxOverlay
        videoRef={videoRef}
        playhead={playhead}
        span={boxSpan}
        editable={editableKey !== null}
        onBoxes={(boxes) => editableKey !== null && dispatch({ type: "edit", key: editableKey, change: { boxes } })}
      />
    </FramePlayer>
  );
}

/** The timeline once the frame times are read (what went wrong, else). */
function TimelineArea({
  times,
  spansError,
  view,
  setView,
  playhead,
  tracks,
  ticks,
  state,
  dispatch,
  videoRef,
  itemId,
}: {
  times: { data?: FrameTimes; error: Error | null };
  spansError: Error | null;
  view: TimelineView;
  setView: React.Dispatch<React.SetStateAction<TimelineView>>;
  playhead: Playhead;
  tracks: Track[];
  ticks: FrameTicks;
  state: TimelineState;
  dispatch: (action: TimelineAction) => void;
  videoRef: RefObject<HTMLVideoElement | null>;
  itemId: string;
}) {
  if (times.error)
    return (
      <p role="alert" className="text-sm text-red-700">
        The video&apos;s frame times could not be read: {times.error.message}
      </p>
    );
  if (spansError)
    return (
      <p role="alert" className="text-sm text-red-700">
        The spans could not be read: {spansError.message}
      </p>
    );
  if (!times.data) return <p className="text-xs text-slate-500">Reading the video&apos;s frame times…</p>;
  const data = times.data;
  return (
    <SpanTimeline
      times={data}
      view={view}
      setView={setView}
      playhead={playhead}
      tracks={tracks}
      ticks={ticks}
      selected={state.selected}
      inOut={{ inFrame: state.inFrame, outFrame: state.outFrame }}
      onSelect={(key) => dispatch({ type: "select", key })}
      onChange={(key, frames) => dispatch({ type: "edit", key, change: frames })}
      onCreate={(label, frames) =>
        dispatch({ type: "create", itemId, draft: { label, ...frames, boxes: [], note: "" } })
      }
      onSeek={(frame) => videoRef.current && seekToFrame(videoRef.current, data, playhead, frame)}
    />
  );
}
