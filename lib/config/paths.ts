import path from "node:path";

/** Where FrameJury keeps local state: the embedded database, storage, the generated secret. */
export function dataDir(): string {
  return path.resolve(process.env.DATA_DIR ?? ".data");
}
