import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, inject } from "vitest";
import { S3_STORAGE_VARIABLES } from "../storage/storage-config";
import { removeMediaFixtures } from "./media-fixtures";

// Every test file talks to its worker's real database through the normal code paths (VITEST_POOL_ID counts the
// workers from 1; see vitest-global-setup.ts).
const databaseUrls = inject("databaseUrls");
process.env.DATABASE_URL = databaseUrls[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % databaseUrls.length];
process.env.APP_SECRET ??= "test-secret-test-secret-test-secret-0123456789";
process.env.APP_URL ??= "http://localhost:3000";
// The stub LLM listens on 127.0.0.1; tests of the endpoint policy turn this off for themselves.
process.env.ALLOW_PRIVATE_ENDPOINTS ??= "1";
// Each test worker stores videos and frames in its own temporary folder, never in a bucket that the
// shell's STORAGE_URL names (tests of S3 storage start their own s3rver).
for (const name of S3_STORAGE_VARIABLES) delete process.env[name];
// JSON log lines only for problems (tests that read the info lines set their own level).
process.env.LOG_LEVEL ??= "warn";
if (process.env.STORAGE_DIR === undefined) {
  const storageDir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-storage-"));
  process.env.STORAGE_DIR = storageDir;
  // A run of the suite left some 330 of these behind in the temporary folder.
  afterAll(() => fs.rmSync(storageDir, { recursive: true, force: true }));
}
afterAll(removeMediaFixtures);
// The task registry installs the task modules the core reads (lib/task-modules/installed-task-modules.ts), for the
// files that load that port (lib/testing/task-module-readers.ts): the others skip loading every task's pipelines.
const testFile = expect.getState().testPath;
if (testFile === undefined || inject("taskModuleReaders").includes(testFile)) await import("../tasks/modules");
