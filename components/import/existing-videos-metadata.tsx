"use client";

import { useEffect, useState } from "react";
import { buttonClass } from "@/components/class-names";
import type { FileMetadata } from "@/lib/import/metadata-file";
import type { MetadataPlan } from "@/lib/videos/apply-metadata";
import { postJson } from "@/lib/api-client";

const SHOWN_CHANGES = 200;
const NONE: ReadonlySet<string> = new Set();

const shown = (value: unknown) =>
  value === null || value === undefined || value === ""
    ? "—"
    : Array.isArray(value)
      ? value.join(", ") || "—"
      : String(value);

/** Parsed metadata by path key (aliases included) → one row per described file, under its longest key. */
export function metadataRows(byPath: ReadonlyMap<string, FileMetadata>) {
  const pathOf = new Map<FileMetadata, string>();
  for (const [path, metadata] of byPath) {
    const known = pathOf.get(metadata);
    if (known === undefined || path.length > known.length) pathOf.set(metadata, path);
  }
  return [...pathOf].map(([metadata, path]) => {
    const { dimension, ...rest } = metadata;
    return { path, ...rest, ...(dimension ? { dimension } : {}) };
  });
}

/**
 * After an import with metadata files or prompt lists: what they would change in videos already in
 * the project (a dry run on the server), and *Apply*; nothing at all when they change no video. Values
 * already set that would change are marked, and applying them needs the overwrite box ticked.
 */
export function ExistingVideosMetadata({
  projectId,
  rows,
  promptLists,
  importedVideoIds = NONE,
}: {
  projectId: string;
  rows: ReturnType<typeof metadataRows>;
  promptLists: boolean;
  /** The videos this import stored: they got the files' values on upload, so a change of theirs alone shows no box. */
  importedVideoIds?: ReadonlySet<string>;
}) {
  const [plan, setPlan] = useState<MetadataPlan | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [overwrite, setOverwrite] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    postJson<MetadataPlan>(`/api/v1/projects/${projectId}/videos/metadata`, { rows, promptLists, dryRun: true })
      .then((result) => live && setPlan(result))
      .catch((e: unknown) => live && setError(e instanceof Error ? e.message : String(e)));
    return () => {
      live = false;
    };
  }, [projectId, rows, promptLists]);

  async function apply() {
    setBusy(true);
    setError(null);
    try {
      setPlan(
        await postJson<MetadataPlan>(`/api/v1/projects/${projectId}/videos/metadata`, {
          rows,
          promptLists,
          dryRun: false,
          confirmOverwrites: overwrite,
        }),
      );
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  // Shown only when the files change videos that were in the project before: after a fresh upload the metadata
  // and prompt lists already went with the videos, and an empty box about "videos already in the project" misled.
  if (!error && (!plan || (!plan.applied && plan.changes.every((change) => importedVideoIds.has(change.videoId)))))
    return null;
  return (
    <section
      className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 text-sm"
      data-testid="existing-videos-metadata"
    >
      <h2 className="font-semibold">Metadata for videos already in the project</h2>
      {plan && (
        <p data-testid="metadata-plan-summary">
          {plan.applied ? "Applied: " : ""}
          {plan.changes.length === 0
            ? `Nothing to change: the ${plan.matchedVideos} video${plan.matchedVideos === 1 ? "" : "s"} named already have these values.`
            : `${plan.changes.length} video${plan.changes.length === 1 ? "" : "s"} ${plan.applied ? "changed" : "would change"}; ${plan.overwrites} value${plan.overwrites === 1 ? "" : "s"} already set ${plan.applied ? "replaced" : "would be replaced"}.`}
          {plan.unmatchedRowCount > 0 &&
            ` ${plan.unmatchedRowCount} row${plan.unmatchedRowCount === 1 ? " names" : "s name"} no video of the project (${plan.unmatchedRows.slice(0, 5).join(", ")}${plan.unmatchedRowCount > 5 ? ", …" : ""}).`}
        </p>
      )}
      {plan && plan.changes.length > 0 && <MetadataChanges plan={plan} />}
      {plan && plan.changes.length > SHOWN_CHANGES && (
        <p className="text-xs text-slate-500">and {plan.changes.length - SHOWN_CHANGES} more videos.</p>
      )}
      {plan && !plan.applied && plan.changes.length > 0 && (
        <div className="flex flex-wrap items-center gap-3">
          {plan.overwrites > 0 && (
            <label className="flex items-center gap-1.5">
              <input
                type="checkbox"
                checked={overwrite}
                onChange={(e) => setOverwrite(e.target.checked)}
                data-testid="confirm-overwrites"
              />
              replace the {plan.overwrites} value{plan.overwrites === 1 ? "" : "s"} already set
            </label>
          )}
          <button
            type="button"
            className={buttonClass()}
            disabled={busy || (plan.overwrites > 0 && !overwrite)}
            onClick={() => void apply()}
            data-testid="apply-metadata"
          >
            {busy ? "Applying…" : `Apply to ${plan.changes.length} video${plan.changes.length === 1 ? "" : "s"}`}
          </button>
        </div>
      )}
      {error && (
        <p role="alert" className="text-red-800">
          {error}
        </p>
      )}
    </section>
  );
}

/** Each change, a row per field (the first SHOWN_CHANGES videos), a value already set that it replaces marked. */
function MetadataChanges({ plan }: { plan: MetadataPlan }) {
  return (
    <table className="w-full text-left text-xs" data-testid="metadata-changes">
      <thead className="text-slate-500">
        <tr>
          <th className="py-1 pr-2">Video</th>
          <th className="pr-2">Field</th>
          <th className="pr-2">Now</th>
          <th>{plan.applied ? "Set to" : "Would be"}</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {plan.changes.slice(0, SHOWN_CHANGES).flatMap((change) =>
          change.fields.map((field, index) => (
            <tr
              key={`${change.videoId}:${field.field}`}
              className={field.overwrite ? "bg-amber-50" : undefined}
              data-testid={field.overwrite ? "metadata-overwrite" : "metadata-change"}
            >
              <td className="max-w-48 truncate py-1 pr-2 font-mono">{index === 0 ? change.relativePath : ""}</td>
              <td className="pr-2">{field.field}</td>
              <td className="max-w-64 truncate pr-2 text-slate-500">{shown(field.before)}</td>
              <td className="max-w-64 truncate">
                {shown(field.after)}
                {field.overwrite && (
                  <span className="ml-1 rounded bg-amber-200 px-1 text-amber-900">replaces a set value</span>
                )}
              </td>
            </tr>
          )),
        )}
      </tbody>
    </table>
  );
}
