// `npm run extract-worker`: frames for every video waiting for them (registered through the API, or stored
// by an import that stopped before its frames), extracted (native ffmpeg, or ffmpeg.wasm without it) exactly
// as `npm run import` does, so such videos do not wait for someone to open the Extract pending page.
import type { Actor } from "../auth/actor";
import { projectAccess, type ProjectAccess } from "../authz/permissions";
import { createFrameSet, recordExtractionError } from "../videos/frame-sets";
import type { VideoDeps } from "../videos/register-video";
import type { FfmpegTools } from "./ffmpeg-tools";
import { extractFrameSetFromFile } from "./native-extraction";
import { frameSetCountsLine } from "../frames/frame-set-parameters";

export interface ExtractWorkerOptions {
  deps: VideoDeps;
  /** Only this project's videos; every project's when absent. */
  projectId?: string;
  parameters: unknown;
  concurrency: number;
  /** Which ffmpeg extracts (default: FRAMEJURY_FFMPEG's choice). */
  frameTools?: FfmpegTools;
  /** Extract what waits now and return, instead of looking again every `intervalMs`. */
  once: boolean;
  intervalMs: number;
  signal?: AbortSignal;
  log: (line: string) => void;
}

const BATCH = 50;

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}

export async function runExtractWorker(options: ExtractWorkerOptions): Promise<{ extracted: number; failed: number }> {
  const { deps, signal, log } = options;
  let extracted = 0;
  let failed = 0;
  // A video this process already tried and failed stays out of later looks (its status says why).
  const tried = new Set<string>();
  while (!signal?.aborted) {
    const waiting = await deps.prisma.video.findMany({
      where: {
        status: "pending_extraction",
        ...(options.projectId ? { projectId: options.projectId } : {}),
        id: { notIn: [...tried] },
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      take: BATCH,
      select: { id: true, projectId: true, relativePath: true, storageKey: true, createdById: true },
    });
    const importers = new Map(
      (
        await deps.prisma.user.findMany({
          where: { id: { in: [...new Set(waiting.map((video) => video.createdById))] } },
          select: { id: true, email: true, name: true },
        })
      ).map((user) => [user.id, user]),
    );
    if (waiting.length === 0) {
      if (options.once) break;
      await pause(options.intervalMs, signal);
      continue;
    }
    const lanes = Array.from({ length: Math.min(options.concurrency, waiting.length) }, async () => {
      while (!signal?.aborted) {
        const video = waiting.shift();
        if (!video) break;
        tried.add(video.id);
        // The worker is the operator's tool, like the admin CLI: it acts with site-admin rights, and the
        // frame set is recorded as made by the video's importer.
        const importer = importers.get(video.createdById);
        const actor: Actor = {
          userId: video.createdById,
          email: importer?.email ?? "extract-worker",
          name: importer?.name ?? "extract-worker",
          isAdmin: true,
        };
        let access: ProjectAccess<"videos.import"> | null = null;
        try {
          // The worker is an entry point as the CLI is: it checks the access its operations take.
          access = await projectAccess(deps.prisma, actor, video.projectId, "videos.import");
          const frames = await deps.storage.withLocalFile(video.storageKey, (localPath) =>
            extractFrameSetFromFile(localPath, options.parameters, { signal, tools: options.frameTools }),
          );
          const saved = await createFrameSet(deps, access, video.id, {
            parameters: frames.parameters,
            manifest: frames.manifest,
            files: frames.files,
            decoder: frames.decoder,
            decoderVersion: frames.decoderVersion,
          });
          extracted += 1;
          log(
            `extracted ${video.relativePath} (video ${video.id}): ${frameSetCountsLine(frames.parameters, frames.manifest)} (${frames.decoder})${saved.created ? "" : " (another worker stored them first)"}`,
          );
        } catch (error) {
          if (signal?.aborted) break;
          failed += 1;
          const message = error instanceof Error ? error.message : String(error);
          log(`failed ${video.relativePath} (video ${video.id}): ${message}`);
          if (access) await recordExtractionError(deps, access, video.id, message.slice(0, 2000)).catch(() => {});
        }
      }
    });
    await Promise.all(lanes);
  }
  return { extracted, failed };
}
