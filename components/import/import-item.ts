// One file of an import as the Import page tracks it, and how picked files join the list: videos, prompt lists and
// metadata files become items; a file a task's import section claims (caption references, question sets…) goes to it.
import type { VideoProbe } from "@/lib/browser-extraction/types";
import { classifyPickedFile } from "@/lib/import/classify-file";
import type { ImportItemState } from "@/lib/import/import-summary";
import type { ClaimedFile } from "@/components/tasks/task-views";
import { GENERATED_TASK_VIEWS } from "@/components/generated/task-views";
import type { PickedFile } from "./collect-files";

export interface ImportItem {
  key: string;
  file: File;
  relativePath: string;
  kind: ReturnType<typeof classifyPickedFile>;
  state: ImportItemState;
  message: string;
  progress: number;
  /** Set once the server stored the video: a retry then only extracts its frames. */
  videoId?: string;
  probe?: VideoProbe;
  /** The stored video has no prompt: its name is not `<prompt>-<index>` and no metadata or prompt list named one. */
  noPrompt?: boolean;
  /** The stored video's whole prompt, shown on hovering its message (which quotes at most its first 80 characters). */
  prompt?: string;
}

/** What a cancel leaves unfinished; Retry takes these up again (a stored video only needs its frames). */
export const RETRYABLE: ImportItemState[] = ["cancelled", "stored"];

/** The registered tasks' Import page sections, in registry order. */
export const taskImportPanels = () => GENERATED_TASK_VIEWS.flatMap((views) => views.importPanels ?? []);

/**
 * Adds the picked files not listed yet to `items` (a path already listed is left out) and returns the ones a task's
 * import section claims, by panel id. A file no task claims and that is not a video, prompt list or metadata file is
 * listed as skipped.
 */
export async function addPickedFiles(
  items: ImportItem[],
  picked: readonly PickedFile[],
): Promise<Map<string, ClaimedFile[]>> {
  const known = new Set(items.map((item) => item.relativePath));
  const claimed = new Map<string, ClaimedFile[]>();
  for (const { file, relativePath } of picked) {
    if (known.has(relativePath)) continue;
    known.add(relativePath);
    const kind = classifyPickedFile(relativePath);
    const candidates = kind === "other" ? taskImportPanels().filter((panel) => panel.fileNames.test(relativePath)) : [];
    if (candidates.length) {
      const head = await file.slice(0, Math.max(...candidates.map((panel) => panel.sniffBytes))).text();
      let claim: unknown = null;
      const panel = candidates.find((candidate) => (claim = candidate.claim(relativePath, head)) !== null);
      if (panel) {
        claimed.set(panel.id, [...(claimed.get(panel.id) ?? []), { picked: { file, relativePath }, claim }]);
        continue;
      }
    }
    items.push({
      key: `${relativePath}#${items.length}`,
      file,
      relativePath,
      kind,
      state: kind === "other" ? "skipped" : "queued",
      message: kind === "other" ? "Skipped: not a video, prompt list or metadata file." : "",
      progress: 0,
    });
  }
  return claimed;
}
