/**
 * A run manifest pasted or uploaded into the run form, read before it is sent: what it would run (task, endpoint,
 * input mode, videos, edited prompts, settings), or why it is not a manifest. Plain TypeScript for the browser; the
 * server checks it whole (lib/judge/runs/run-manifest.ts, `POST …/runs` with `{manifest}`).
 */
import { MANIFEST_FORMAT_NAME } from "./run-manifest-format";

export interface ManifestSummary {
  pipeline: string;
  /** The endpoint it ran on: its name (else its id) and address. */
  endpoint: string;
  inputMode: string;
  videos: number;
  promptVersions: number;
  settings: string;
}

export type ManifestText =
  { ok: true; manifest: Record<string, unknown>; summary: ManifestSummary } | { ok: false; error: string };

const objectOf = (value: unknown): Record<string, unknown> | null =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;

export function readManifestText(text: string): ManifestText {
  if (text.trim() === "") return { ok: false, error: "Paste a run manifest or choose its file." };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Not JSON: ${(error as Error).message}` };
  }
  const manifest = objectOf(parsed);
  if (!manifest || manifest.format !== MANIFEST_FORMAT_NAME)
    return {
      ok: false,
      error: `Not a run manifest: its "format" is not "${MANIFEST_FORMAT_NAME}" (download one from a run's page).`,
    };
  const task = objectOf(manifest.task);
  const endpoint = objectOf(manifest.endpoint);
  const input = objectOf(manifest.input);
  if (typeof task?.pipeline !== "string") return { ok: false, error: 'The manifest names no task ("task.pipeline").' };
  if (typeof endpoint?.id !== "string") return { ok: false, error: 'The manifest names no endpoint ("endpoint.id").' };
  if (!Array.isArray(manifest.videos)) return { ok: false, error: 'The manifest lists no videos ("videos").' };
  const name = typeof endpoint.name === "string" ? endpoint.name : endpoint.id;
  return {
    ok: true,
    manifest,
    summary: {
      pipeline: task.pipeline,
      endpoint: typeof endpoint.baseUrl === "string" ? `${name} (${endpoint.baseUrl})` : name,
      inputMode: typeof input?.mode === "string" ? input.mode : "images",
      videos: manifest.videos.length,
      promptVersions: Array.isArray(manifest.promptVersions) ? manifest.promptVersions.length : 0,
      settings: JSON.stringify(manifest.settings ?? {}),
    },
  };
}
