import path from "node:path";

/** Where FrameJury keeps local state: the embedded database, storage, the generated secret. */
export function dataDir(env: Record<string, string | undefined> = process.env): string {
  return path.resolve(env.DATA_DIR ?? ".data");
}
