/** queued → running → done, or cancelled on the way; a failed attempt keeps `running` with its error and is retried. */
export type DeletionStatus = "queued" | "running" | "done" | "cancelled";

/** What a deletion run by the workers in batches (a project's, or a large one of videos) reports as it goes. */
export interface DeletionProgress<Counts> {
  id: string;
  projectId: string;
  status: DeletionStatus;
  /** What the deletion removes, counted when it was asked for. */
  counts: Counts;
  videosTotal: number;
  videosDeleted: number;
  storageRemoved: number;
  cancelRequested: boolean;
  /** The last attempt's error while a worker retries it. */
  error: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}

/** The progress fields of a deletion's row (project_deletion and video_deletion share them). */
export function deletionProgressOf<Counts>(
  row: Omit<DeletionProgress<unknown>, "status" | "counts"> & { status: string; counts: unknown },
): DeletionProgress<Counts> {
  return {
    id: row.id,
    projectId: row.projectId,
    status: row.status as DeletionStatus,
    counts: row.counts as Counts,
    videosTotal: row.videosTotal,
    videosDeleted: row.videosDeleted,
    storageRemoved: row.storageRemoved,
    cancelRequested: row.cancelRequested,
    error: row.error,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
  };
}
