import fs from "node:fs/promises";
import { ALL_FORMATS, EncodedPacketSink, FilePathSource, Input } from "mediabunny";

export type ProbeFailure = "empty" | "not_a_video" | "audio_only" | "corrupt";

export interface ServerProbe {
  container: string;
  codec: string | null;
  width: number;
  height: number;
  durationS: number;
  fps: number | null;
  frameCount: number | null;
}

export type ServerProbeResult = { ok: true; probe: ServerProbe } | { ok: false; reason: ProbeFailure; message: string };

/**
 * Demuxes a stored file (no decoding) to tell a usable video from the rest: empty, not a media
 * container, audio only, or truncated (the last video packet's bytes are missing). The browser
 * decodes the frames; this check keeps API clients from registering files nobody can use.
 */
export async function probeVideoFile(path: string): Promise<ServerProbeResult> {
  const { size } = await fs.stat(path);
  if (size === 0) return { ok: false, reason: "empty", message: "The file is empty (0 bytes)." };
  const input = new Input({ source: new FilePathSource(path), formats: ALL_FORMATS });
  try {
    let format;
    try {
      format = await input.getFormat();
    } catch {
      return {
        ok: false,
        reason: "not_a_video",
        message: "Not a video: the file is not in a container FrameJury can read (mp4, mov, webm, mkv).",
      };
    }
    const track = await input.getPrimaryVideoTrack();
    if (!track && (await input.getTracks()).length === 0) {
      // A recognised container without any track index: typically an MP4 cut before its moov box.
      return {
        ok: false,
        reason: "corrupt",
        message: "The file is damaged or truncated: the container has no track index.",
      };
    }
    if (!track) {
      const audio = await input.getPrimaryAudioTrack();
      return audio
        ? { ok: false, reason: "audio_only", message: "The file has audio but no video track." }
        : { ok: false, reason: "not_a_video", message: "The file has no video track." };
    }
    try {
      const sink = new EncodedPacketSink(track);
      const last = await sink.getPacket(Infinity);
      if (!last || last.byteLength === 0) throw new Error("no readable packets");
      const stats = await track.computePacketStats();
      const durationS = await track.computeDuration();
      return {
        ok: true,
        probe: {
          container: format.name,
          codec: track.codec,
          width: track.displayWidth,
          height: track.displayHeight,
          durationS,
          fps: stats.averagePacketRate > 0 ? stats.averagePacketRate : null,
          frameCount: stats.packetCount,
        },
      };
    } catch (error) {
      return {
        ok: false,
        reason: "corrupt",
        message: `The file is damaged or truncated: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  } finally {
    input.dispose();
  }
}
