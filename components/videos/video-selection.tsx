"use client";

import { useRouter } from "next/navigation";
import { createContext, type ReactNode, useContext, useState } from "react";
import { buttonClass } from "@/components/class-names";
import type { VideoDeletionResult } from "@/lib/videos/delete-videos";
import { DeleteVideosDialog } from "./delete-videos-dialog";

interface Selection {
  selected: ReadonlySet<string>;
  toggle: (id: string, on: boolean) => void;
}

const SelectionContext = createContext<Selection | null>(null);

/**
 * The video list's selection (owners): a checkbox per row and a bar that deletes the chosen videos
 * after the counted confirmation. Without the provider (other roles) the checkboxes render nothing.
 */
export function VideoSelectionProvider({
  enabled,
  projectId,
  pageIds,
  children,
}: {
  enabled: boolean;
  projectId: string;
  pageIds: string[];
  children: ReactNode;
}) {
  const router = useRouter();
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const toggle = (id: string, on: boolean) =>
    setSelected((old) => {
      const next = new Set(old);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  if (!enabled) return children;
  // An empty page (a deletion took its last videos): only the status of what was done.
  if (pageIds.length === 0 && !confirming)
    return (
      <>
        {done && (
          <p role="status" className="text-sm text-emerald-700" data-testid="delete-done">
            {done}
          </p>
        )}
        {children}
      </>
    );
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id));

  function deleted(result: VideoDeletionResult) {
    setConfirming(false);
    setSelected(new Set());
    const failed = result.storage?.failedCount
      ? ` ${result.storage.failedCount} stored files could not be removed (logged).`
      : "";
    const deletedVideos = `${result.counts.videos} video${result.counts.videos === 1 ? "" : "s"}`;
    setDone(
      result.deletion?.status === "cancelled"
        ? `Cancelled after deleting ${deletedVideos}; the others are kept.`
        : `Deleted ${deletedVideos}.${failed}`,
    );
    router.refresh();
  }

  return (
    <SelectionContext.Provider value={{ selected, toggle }}>
      <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="video-selection-bar">
        <label className="flex items-center gap-1.5">
          <input
            type="checkbox"
            checked={allOnPage}
            onChange={(e) => setSelected(e.target.checked ? new Set(pageIds) : new Set())}
            data-testid="select-page"
          />
          select this page
        </label>
        <span className="text-slate-500" data-testid="selected-count">
          {selected.size} selected
        </span>
        <button
          type="button"
          className={buttonClass("danger")}
          disabled={selected.size === 0}
          onClick={() => setConfirming(true)}
          data-testid="delete-selected"
        >
          Delete selected…
        </button>
        {done && (
          <span role="status" className="text-emerald-700" data-testid="delete-done">
            {done}
          </span>
        )}
      </div>
      {children}
      {confirming && (
        <DeleteVideosDialog
          projectId={projectId}
          videoIds={[...selected]}
          onCancel={() => setConfirming(false)}
          onDeleted={deleted}
        />
      )}
    </SelectionContext.Provider>
  );
}

/** A row's checkbox; nothing outside a VideoSelectionProvider. */
export function VideoSelectCheckbox({ id, label }: { id: string; label: string }) {
  const selection = useContext(SelectionContext);
  if (!selection) return null;
  return (
    <input
      type="checkbox"
      className="mr-2 mt-0.5 shrink-0 align-middle"
      aria-label={`select ${label}`}
      checked={selection.selected.has(id)}
      onChange={(e) => selection.toggle(id, e.target.checked)}
      onClick={(e) => e.stopPropagation()}
      data-testid="video-select"
    />
  );
}
