"use client";

/**
 * The parts of an item's review screen around its targets: the header with the queue's progress, the pinned video,
 * the guidelines, the line above the targets, the buttons, the status line and the key bar; with the screen's keys.
 */
import type { ReactNode, RefObject } from "react";
import { Guidelines } from "@/components/markdown";
import { SubjectViews } from "@/components/tasks/subject-views";
import { subjectValueKeys } from "@/components/tasks/queue-views";
import { VideoFramesViewer } from "@/components/videos/video-frames-viewer";
import type { ReviewMessage } from "@/components/queues/review-state";
import type { ItemView, ScreenSupport, TargetView } from "@/components/queues/review-types";
import { DIGIT_CHAIN_MS } from "@/lib/queues/score-keys";
import type { DeclarationCatalogue } from "@/lib/task-modules/declaration-catalogue";
import { metricOf } from "@/lib/task-modules/task-declaration";

/** The screen's keys, with the verdict names and subject keys of every task of the project's catalogue. */
export function reviewShortcuts(catalogue: DeclarationCatalogue): [string, string][] {
  const positives = [
    ...new Set(
      catalogue.tasks.flatMap((task) =>
        task.verdict ? [metricOf(task, task.verdict.metricId)?.label.toLowerCase() ?? task.verdict.metricId] : [],
      ),
    ),
  ];
  return [
    ["j / ↓", "next target"],
    ["k / ↑", "previous target"],
    [
      "0–9",
      `score the focused target (10: type 1 then 0 within ${DIGIT_CHAIN_MS} ms); with "a score moves on", the focus then goes to the next target`,
    ],
    [
      "y / n",
      `answer yes / no: the item's verdict, else the focused yes/no question (also 1 / 0${positives.length ? `; a verdict's yes is ${positives.join(" / ")}` : ""})`,
    ],
    ...Object.values(subjectValueKeys()).map((keys) => keys.help),
    ...CORE_SHORTCUTS_AFTER,
  ];
}

const CORE_SHORTCUTS_AFTER: [string, string][] = [
  ["a", "accept the judge's value for the focused target"],
  ["A", "accept all the judge's values"],
  ["m", "write a note on the focused target (Esc leaves it)"],
  ["g", "show / hide the guidelines"],
  ["Enter", "submit and go to the next item (blind queue: first shows the judge's values; Enter again goes on)"],
  ["] / →", "next item"],
  ["[ / ←", "previous item (your own)"],
  ["Space", "play / pause the video"],
  ["?", "show / hide this help"],
];

/** The queue's name, the item's place among the reviewer's, the way out to the overview, and the queue's progress. */
export function ItemHeader({
  projectId,
  data,
  support,
  progress,
}: {
  projectId: string;
  data: ItemView;
  support: ScreenSupport;
  progress: ItemView["progress"];
}) {
  const percent = progress.items ? Math.round((100 * progress.complete) / progress.items) : 0;
  return (
    <>
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="text-xl font-semibold tracking-tight">{data.queue.name}</h1>
        {data.queue.blind && (
          <span className="rounded bg-slate-800 px-2 py-0.5 text-xs text-white" data-testid="blind-badge">
            {data.blind ? "blind: judge values hidden until you submit" : "blind queue · submitted: judge values shown"}
          </span>
        )}
        <span className="text-sm text-slate-500" data-testid="item-position">
          your item {data.nav.index + 1} of {Math.max(data.nav.count, support.reached)} ·{" "}
          {data.assignment.status === "done" ? "submitted" : "not submitted yet"}
        </span>
        <a
          href={`/projects/${projectId}/queues/${data.queue.id}`}
          className="ml-auto text-sm text-indigo-700 underline"
          data-testid="queue-overview-link"
          onClick={(event) => {
            if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
            event.preventDefault();
            void support.leaveTo(event.currentTarget.href);
          }}
        >
          queue overview
        </a>
      </div>
      <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="queue-progress">
        <div className="h-2 w-48 overflow-hidden rounded bg-slate-200" aria-hidden>
          <div className="h-full bg-emerald-500" style={{ width: `${percent}%` }} />
        </div>
        <span>
          {progress.complete} of {progress.items} items complete ({data.queue.reviewersPerItem} reviewer
          {data.queue.reviewersPerItem === 1 ? "" : "s"} each)
        </span>
        <span className="font-medium" data-testid="my-count">
          you: {progress.mine.done} submitted
        </span>
      </div>
    </>
  );
}

/** The video's prompt and file name. */
export function ReviewPrompt({ video }: { video: ItemView["video"] }) {
  return (
    <p className="text-sm" data-testid="review-prompt">
      <span className="text-slate-500">Prompt: </span>
      {video.prompt ?? "—"} <span className="text-xs text-slate-500">({video.fileName})</span>
    </p>
  );
}

/**
 * The player's height on a localising item: the viewport less the page's header, the item's header and the timeline's
 * usual lanes, so the timeline right under the player is in view without scrolling (at 1440×900 the player is about
 * 340 px high); never under 12rem.
 */
const LOCALISING_PLAYER_HEIGHT = "[&_video]:max-h-[max(12rem,calc(100vh-35rem))]";

/**
 * Pinned while the targets scroll: the player and the strip stay in view beside the form. A localising item's span
 * editor takes the player's place with its timeline directly under the picture; its prompt moves to the other column
 * and the player is kept short enough for the timeline to show above the fold.
 */
export function PinnedVideo({
  data,
  playerRef,
  looked,
  player,
}: {
  data: ItemView;
  playerRef: RefObject<HTMLVideoElement | null>;
  /** A localising queue's span editor in the plain player's place (its video element on `playerRef`). */
  player?: ReactNode;
  /** Where the judge looked for the focused target: the frames the strip lights. */
  looked: { frameIndexes: number[]; label: string } | null;
}) {
  const localising = Boolean(player);
  return (
    <div
      className={`flex min-w-0 flex-col gap-3 lg:sticky lg:top-2 lg:max-h-[calc(100vh-1rem)] lg:self-start lg:overflow-y-auto ${localising ? LOCALISING_PLAYER_HEIGHT : ""}`}
      data-testid="pinned-video"
    >
      {!localising && <ReviewPrompt video={data.video} />}
      <VideoFramesViewer
        videoUrl={data.video.url}
        frames={data.video.frames}
        uniform={data.video.uniformFrames}
        playerRef={playerRef}
        highlighted={new Set(looked?.frameIndexes ?? [])}
        highlightLabel={looked?.label ?? null}
        player={player}
      />
      <SubjectViews item={data} blind={data.blind} />
    </div>
  );
}

export function GuidelinesPanel({
  guidelines,
  shown,
}: {
  guidelines: NonNullable<ItemView["guidelines"]>;
  shown: boolean;
}) {
  return (
    <section
      aria-label="Guidelines"
      className="rounded-md border border-amber-200 bg-amber-50/50 p-2"
      data-testid="review-guidelines"
      data-shown={shown}
    >
      <p className="text-xs text-slate-600">
        <b>Guidelines</b> · <kbd className="font-mono font-semibold">g</kbd> {shown ? "hides" : "shows"} them
      </p>
      {shown && (
        <div className="mt-1 max-h-60 overflow-y-auto">
          <Guidelines project={guidelines.project} queue={guidelines.queue} />
        </div>
      )}
    </section>
  );
}

/** How many targets are judged, a reminder of the keys, and the "a score moves on" option. */
export function TargetsHeading({
  hidden,
  answered,
  count,
  support,
  screen,
}: {
  hidden: boolean;
  answered: number;
  count: number;
  support: ScreenSupport;
  screen: RefObject<HTMLDivElement | null>;
}) {
  return (
    <div className={`flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500 ${hidden ? "hidden" : ""}`}>
      <span>
        {answered} of {count} judged · click a value or type digits, j/k to move, Enter to submit, ? for help
      </span>
      <label className="flex items-center gap-1" title="Kept in this browser for every queue">
        <input
          type="checkbox"
          checked={support.digitAdvances}
          onChange={(event) => {
            support.setDigitAdvances(event.target.checked);
            // Back to the screen, so the keys work again (a checkbox with focus takes them).
            event.currentTarget.blur();
            screen.current?.focus();
          }}
          data-testid="digit-advances"
        />
        a score moves on to the next target
      </label>
    </div>
  );
}

/** Submit (or, on a revealed item, go on) and the buttons to the previous and next items, which act as their keys do. */
export function ItemActions({
  revealing,
  busy,
  hasPrevious,
  onGoOn,
  onSubmit,
  pressKey,
}: {
  revealing: boolean;
  busy: boolean;
  hasPrevious: boolean;
  onGoOn: () => void;
  onSubmit: () => void;
  pressKey: (key: string) => void;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      {revealing ? (
        <button
          type="button"
          onClick={onGoOn}
          className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white"
          data-testid="reveal-next"
        >
          Next item (Enter)
        </button>
      ) : (
        <button
          type="button"
          onClick={onSubmit}
          disabled={busy}
          className="rounded-md bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white disabled:opacity-50"
          data-testid="submit-item"
        >
          Submit (Enter)
        </button>
      )}
      <button
        type="button"
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => pressKey("[")}
        disabled={!hasPrevious}
        className="rounded-md border border-slate-300 px-2 py-1 text-sm text-slate-700 disabled:opacity-40"
        data-testid="previous-item"
      >
        ← previous
      </button>
      {!revealing && (
        <button
          type="button"
          onMouseDown={(event) => event.preventDefault()}
          onClick={() => pressKey("]")}
          className="rounded-md border border-slate-300 px-2 py-1 text-sm text-slate-700"
          data-testid="next-item"
        >
          next →
        </button>
      )}
    </div>
  );
}

/** The screen's one status line; a target left without a value gets a button that goes to it. */
export function StatusLine({
  message,
  targets,
  onJump,
}: {
  message: ReviewMessage | null;
  targets: TargetView[];
  onJump: (index: number) => void;
}) {
  const jumpTo = message?.jumpTo ? targets.findIndex((t) => t.key === message.jumpTo) : -1;
  return (
    <p
      role="status"
      aria-live="polite"
      data-testid="status-message"
      className={`min-h-5 text-sm ${message?.tone === "error" ? "text-red-700" : "text-slate-600"}`}
    >
      {message?.text}{" "}
      {jumpTo >= 0 && (
        <button
          type="button"
          className="ml-1 rounded border border-red-300 bg-white px-2 py-0.5 text-xs text-red-800"
          onClick={() => onJump(jumpTo)}
          data-testid="jump-to-missing"
        >
          Go to the first missing target ({targets[jumpTo]!.label})
        </button>
      )}
    </p>
  );
}

/** The keys in one line, each with the start of what it does; `?` opens the full list. */
export function ShortcutBar({ shortcuts }: { shortcuts: [string, string][] }) {
  return (
    <section
      aria-label="Keyboard shortcuts"
      className="rounded-md border border-slate-200 bg-white p-3 text-xs text-slate-600"
      data-testid="shortcut-help"
    >
      <p>
        {shortcuts.map(([keys, what]) => `${keys} ${what.split(" (")[0]}`).join(" · ")} — press{" "}
        <kbd className="font-mono font-semibold">?</kbd> for details.
      </p>
    </section>
  );
}
