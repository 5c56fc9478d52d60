import { prisma } from "../db/prisma";
import { getStorage } from "../storage/storage";
import type { VideoDeps } from "./register-video";

/** The real database and storage, for route handlers; tests pass their own. */
export function appDeps(): VideoDeps {
  return { prisma, storage: getStorage() };
}
