import { createHash, randomUUID } from "node:crypto";
import type { Prisma } from "../generated/prisma/client";
import type { ProjectAccess } from "../authz/permissions";
import { MAX_FRAME_BYTES } from "../config/limits";
import { NotFoundError, ValidationError } from "../errors";
import { someNamed } from "../format/some-named";
import { checkFrameManifest, frameSetParametersKey, normaliseFrameSetParameters } from "../frames/frame-set-parameters";
import { frameKey } from "../storage/storage";
import { jpegInfo } from "../video/jpeg-info";
import type { VideoDeps } from "./register-video";
import { isPrismaError, UNIQUE_VIOLATION } from "../db/prisma-errors";
import { log } from "../observability/logger";
import { queueFrameTimes } from "./frame-times-jobs";

/** A frame set is identified by its video's bytes and its canonical parameters. */
export function frameSetIdentity(videoSha256: string, parametersKey: string): string {
  return createHash("sha256").update(videoSha256).update("\n").update(parametersKey).digest("hex");
}

/** The video `videoId` of the access's project; a video of another project is "No such video." as a missing one. */
export async function findProjectVideo(deps: Pick<VideoDeps, "prisma">, access: ProjectAccess, videoId: string) {
  const video = await deps.prisma.video.findFirst({ where: { id: videoId, projectId: access.projectId } });
  if (!video) throw new NotFoundError("No such video.");
  return video;
}

/**
 * Stores frames extracted by a client. Everything is checked before anything is written; a
 * failure part-way removes what was stored. The same parameters twice is a no-op that returns
 * the existing frame set.
 */
export async function createFrameSet(
  deps: VideoDeps,
  access: ProjectAccess<"videos.import">,
  videoId: string,
  input: {
    parameters: unknown;
    manifest: unknown;
    files: Map<string, Uint8Array>;
    decoder?: string | null;
    decoderVersion?: string | null;
  },
) {
  const { prisma, storage } = deps;
  const video = await findProjectVideo(deps, access, videoId);

  const parsedParameters = safe(() => normaliseFrameSetParameters(input.parameters), "parameters");
  const parametersKey = frameSetParametersKey(parsedParameters);
  const identity = frameSetIdentity(video.sha256, parametersKey);
  const existing = await prisma.frameSet.findUnique({
    where: { videoId_identity: { videoId, identity } },
    select: { id: true },
  });
  if (existing) return { frameSetId: existing.id, created: false };

  const checked = checkFrameManifest(input.manifest, parsedParameters.mode);
  if (!checked.ok) throw new ValidationError(`manifest: ${checked.problems.join("; ")}`);
  const { manifest } = checked;

  const named = new Set(manifest.map((frame) => frame.name));
  const missing = manifest.filter((frame) => !input.files.has(frame.name)).map((frame) => frame.name);
  const unexpected = [...input.files.keys()].filter((name) => !named.has(name));
  if (missing.length) throw new ValidationError(`missing file parts for: ${someNamed(missing, 5)}`);
  if (unexpected.length) throw new ValidationError(`file parts not in the manifest: ${someNamed(unexpected, 5)}`);

  const frames = manifest.map((frame) => {
    const bytes = input.files.get(frame.name)!;
    if (bytes.length > MAX_FRAME_BYTES)
      throw new ValidationError(`${frame.name} is larger than ${MAX_FRAME_BYTES} bytes`);
    const info = jpegInfo(bytes);
    if (!info) throw new ValidationError(`${frame.name} is not a JPEG image`);
    return { ...frame, bytes, ...info };
  });

  const frameSetId = randomUUID();
  const storedKeys: string[] = [];
  try {
    const rows: Prisma.FrameCreateManyInput[] = [];
    for (const frame of frames) {
      const key = frameKey(video.projectId, frameSetId, frame.index);
      const stored = await storage.put(key, frame.bytes);
      storedKeys.push(key);
      rows.push({
        frameSetId,
        index: frame.index,
        timestampS: frame.timestampS,
        isKeyFrame: frame.isKeyFrame,
        cluster: frame.cluster,
        storageKey: key,
        sha256: stored.sha256,
        sizeBytes: stored.size,
        width: frame.width,
        height: frame.height,
      });
    }
    await prisma.$transaction([
      prisma.frameSet.create({
        data: {
          id: frameSetId,
          videoId,
          identity,
          parameters: parsedParameters as unknown as Prisma.InputJsonValue,
          mode: parsedParameters.mode,
          decoder: input.decoder ?? null,
          decoderVersion: input.decoderVersion ?? null,
          frameCount: frames.length,
          keyFrameCount: frames.filter((frame) => frame.isKeyFrame).length,
          createdById: access.actor.userId,
        },
      }),
      prisma.frame.createMany({ data: rows }),
      prisma.video.update({ where: { id: videoId }, data: { status: "ready", error: null } }),
    ]);
  } catch (error) {
    await Promise.all(storedKeys.map((key) => storage.delete(key)));
    if (isPrismaError(error, UNIQUE_VIOLATION)) {
      const winner = await prisma.frameSet.findUniqueOrThrow({
        where: { videoId_identity: { videoId, identity } },
        select: { id: true },
      });
      return { frameSetId: winner.id, created: false };
    }
    throw error;
  }
  await queueFrameTimesOf(videoId);
  return { frameSetId, created: true };
}

/**
 * The video's frames are registered: its frame times are computed now, by a worker (lib/videos/frame-times-jobs.ts).
 * A queue that cannot be reached leaves the frames registered: a worker's start queues every video still without.
 */
async function queueFrameTimesOf(videoId: string): Promise<void> {
  await queueFrameTimes([videoId]).catch((error: unknown) =>
    log().warn({ err: error, videoId }, "could not queue the video's frame times"),
  );
}

/** The browser could not decode a stored video: keep the file, say why. */
export async function recordExtractionError(
  deps: VideoDeps,
  access: ProjectAccess<"videos.import">,
  videoId: string,
  message: string,
) {
  await findProjectVideo(deps, access, videoId);
  const frameSets = await deps.prisma.frameSet.count({ where: { videoId } });
  await deps.prisma.video.update({
    where: { id: videoId },
    // A video that already has frames stays usable; the error is still shown.
    data: { status: frameSets > 0 ? "ready" : "failed", error: message },
  });
}

function safe<T>(parse: () => T, label: string): T {
  try {
    return parse();
  } catch (error) {
    const issues = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
    throw new ValidationError(
      `${label}: ${issues ? issues.map((i) => `${i.path.join(".") || "value"}: ${i.message}`).join("; ") : String(error)}`,
    );
  }
}
