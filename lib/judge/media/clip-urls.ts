import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { Readable } from "node:stream";
import { ALL_FORMATS, Input, StreamSource } from "mediabunny";
import { z } from "zod";
import type { PrismaClient } from "../../generated/prisma/client";
import { appUrl } from "../../config/app-url";
import { AppError, ForbiddenError, NotFoundError } from "../../errors";
import type { ObjectStorage } from "../../storage/object-storage";
import { appSecret } from "../endpoints/endpoints";
import { PROBE_CLIP } from "../endpoints/probe-assets/probe-clip";

/**
 * The app's short-lived signed URLs of a run's video clips: what a `video-file` request names instead of a data URL
 * when the clip would not fit the endpoint's largest body (lib/judge/engine/video-media.ts clipGoesByUrl). The
 * endpoint fetches the clip from the route `GET /api/v1/clips/{token}`, which needs no session: the token is the
 * authorization, `<claims>.<signature>`, the claims (video, run, expiry, a random nonce) in base64url JSON, signed
 * with an HMAC-SHA256 key derived from APP_SECRET.
 *
 * A URL serves its clip **once**: a server fetches it once per request, and a second fetch (a replayed or leaked
 * URL) is a 410 saying it was used, as is a fetch after the expiry. A tampered token is a 403, one that is not a
 * token at all a 404, a clip whose file has no video stream a 422 (the URL is not spent). So a request sent again
 * (a retry) needs a URL signed again.
 */

/** The longest a URL may live: an endpoint fetches the clip as the request arrives. */
export const MAX_CLIP_URL_TTL_S = 3600;

const claimsSchema = z.object({
  v: z.string().min(1).max(100),
  r: z.string().min(1).max(100),
  /** Expiry, Unix seconds. */
  e: z.number().int().positive(),
  n: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/),
});
type ClipClaims = z.infer<typeof claimsSchema>;

/** The signing key: derived from APP_SECRET for this use only, so a clip signature signs nothing else. */
function clipKey(): Buffer {
  return createHmac("sha256", appSecret()).update("framejury:clip-url:v1").digest();
}

function signature(claims: string): Buffer {
  return createHmac("sha256", clipKey()).update(claims).digest();
}

/** A signed token for a video of a run, valid `ttlS` seconds from `now` (at most MAX_CLIP_URL_TTL_S). */
export function signedClipToken(input: { videoId: string; runId: string; ttlS: number; now?: Date }): string {
  if (!Number.isInteger(input.ttlS) || input.ttlS < 1 || input.ttlS > MAX_CLIP_URL_TTL_S)
    throw new RangeError(`A clip URL lives 1 to ${MAX_CLIP_URL_TTL_S} seconds, not ${input.ttlS}.`);
  const now = input.now ?? new Date();
  const claims: ClipClaims = {
    v: input.videoId,
    r: input.runId,
    e: Math.floor(now.getTime() / 1000) + input.ttlS,
    n: randomBytes(16).toString("base64url"),
  };
  const encoded = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${encoded}.${signature(encoded).toString("base64url")}`;
}

/**
 * A URL of the app from which an endpoint may fetch the video's clip for the run, once, within `ttlS` seconds
 * (APP_URL must be reachable from the endpoint); null when the app cannot hand one out (no APP_SECRET to sign with:
 * the request then carries the clip as a data URL).
 */
export function signedClipUrl(videoId: string, runId: string, ttlS: number, now?: Date): string | null {
  if (!process.env.APP_SECRET) return null;
  return `${appUrl().replace(/\/+$/, "")}/api/v1/clips/${signedClipToken({ videoId, runId, ttlS, now })}`;
}

/**
 * The endpoint probe's clip (lib/judge/endpoints/probe-assets/probe-clip.ts) stands where a token names a video and a run: no
 * record id has this form (ids are letters and digits), so no token of a real clip ever names it.
 */
const PROBE_CLIP_ID = "probe-clip";
/** How long the probe's URL lives: the probe's request fetches it at once. */
const PROBE_CLIP_URL_TTL_S = 300;

/** A URL of the app from which an endpoint may fetch the probe's clip, once; null without APP_SECRET to sign with. */
export function signedProbeClipUrl(now?: Date): string | null {
  return signedClipUrl(PROBE_CLIP_ID, PROBE_CLIP_ID, PROBE_CLIP_URL_TTL_S, now);
}

/** Spends a token's nonce: the first fetch of its URL; a second is a 410. */
async function spendClipUrl(prisma: PrismaClient, claims: ClipClaims, now: Date): Promise<void> {
  await prisma.clipUrlFetch.deleteMany({ where: { expiresAt: { lt: now } } });
  const spent = await prisma.clipUrlFetch.createMany({
    data: [{ nonce: claims.n, videoId: claims.v, runId: claims.r, expiresAt: new Date(claims.e * 1000) }],
    skipDuplicates: true,
  });
  if (spent.count === 0)
    throw new AppError(410, "clip_url_used", "The clip URL was already used: each URL serves its clip once.");
}

/** The claims of a token whose signature holds and which has not expired; the 404, 403 or 410 saying why not. */
export function verifyClipToken(token: string, now = new Date()): ClipClaims {
  const match = /^([A-Za-z0-9_-]{1,2000})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) throw new NotFoundError("No such clip URL.");
  const [, encoded, sent] = match as unknown as [string, string, string];
  const expected = signature(encoded);
  const given = Buffer.from(sent, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    throw new ForbiddenError("The clip URL's signature does not match: it was altered or signed by another server.");
  let claims: ClipClaims;
  try {
    claims = claimsSchema.parse(JSON.parse(Buffer.from(encoded, "base64url").toString("utf8")));
  } catch {
    throw new NotFoundError("No such clip URL.");
  }
  if (claims.e * 1000 <= now.getTime())
    throw new AppError(410, "clip_url_expired", "The clip URL has expired: ask for the clip again with a new URL.");
  return claims;
}

/** Whether a stored file has a video stream, read with mediabunny through ranges of the object (no decoding). */
async function hasVideoStream(storage: ObjectStorage, key: string, size: number): Promise<boolean> {
  const source = new StreamSource({
    getSize: () => size,
    read: async (start, end) => {
      const chunks: Buffer[] = [];
      for await (const chunk of await storage.get(key, { start, end: end - 1 })) chunks.push(chunk as Buffer);
      return new Uint8Array(Buffer.concat(chunks));
    },
  });
  const input = new Input({ source, formats: ALL_FORMATS });
  try {
    return (await input.getPrimaryVideoTrack()) !== null;
  } catch {
    return false;
  } finally {
    input.dispose();
  }
}

/**
 * The clip a token names, for the route to stream: checked (signature, expiry), its video and run still there and
 * of one project, its file readable as a video, then the URL spent (a nonce recorded once; a second fetch finds it
 * and is a 410). Rows of URLs past their expiry are swept on the way.
 */
export async function clipForToken(
  deps: { prisma: PrismaClient; storage: ObjectStorage },
  token: string,
  now = new Date(),
): Promise<{ body: Readable; size: number; contentType: string; fileName: string }> {
  const claims = verifyClipToken(token, now);
  if (claims.v === PROBE_CLIP_ID && claims.r === PROBE_CLIP_ID) {
    await spendClipUrl(deps.prisma, claims, now);
    const bytes = Buffer.from(PROBE_CLIP.mp4Base64, "base64");
    return { body: Readable.from([bytes]), size: bytes.length, contentType: "video/mp4", fileName: "probe.mp4" };
  }
  const video = await deps.prisma.video.findUnique({
    where: { id: claims.v },
    select: { projectId: true, storageKey: true, contentType: true, fileName: true },
  });
  const run = await deps.prisma.judgeRun.findUnique({ where: { id: claims.r }, select: { projectId: true } });
  if (!video || !run || run.projectId !== video.projectId)
    throw new NotFoundError("The clip URL's video or run no longer exists.");
  const stat = await deps.storage.stat(video.storageKey);
  if (!stat) throw new NotFoundError("The clip's file is missing from storage.");
  if (!(await hasVideoStream(deps.storage, video.storageKey, stat.size)))
    throw new AppError(422, "no_video_stream", "The clip has no video stream: it cannot be sent as a video.");
  await spendClipUrl(deps.prisma, claims, now);
  return {
    body: await deps.storage.get(video.storageKey),
    size: stat.size,
    contentType: video.contentType,
    fileName: video.fileName,
  };
}
