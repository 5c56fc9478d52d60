import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, inject } from "vitest";
import { S3_STORAGE_VARIABLES } from "./storage-variables";

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
// Workers started on the shared test database keep no span agreement reports: other tests' projects would get stored
// reports they do not expect (span-agreement-keeper.test.ts runs the keeper on a database of its own).
process.env.SPAN_AGREEMENT_KEEPER_SECONDS = "0";
// Everything a file puts in the temporary folder (its storage, the media fixtures, its own folders, the processes it
// starts) goes in one folder of its own, removed after the file: otherwise a run of the suite leaves some 450 behind.
const temporaryFolder = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-vitest-"));
// Open like /tmp (less its sticky bit): the embedded PostgreSQL a file starts runs as the postgres user, who must reach
// its folders inside (lib/db/embedded-postgres.ts).
fs.chmodSync(temporaryFolder, 0o755);
process.env.TMPDIR = temporaryFolder;
afterAll(() => fs.rmSync(temporaryFolder, { recursive: true, force: true }));
process.env.STORAGE_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "framejury-storage-"));
// The composition root builds the application context (the task catalogue the core reads), for the files that load
// where the core reads it (testkit/testing/task-module-readers.ts): the others skip loading every task's pipelines.
const testFile = expect.getState().testPath;
if (testFile === undefined || inject("taskModuleReaders").includes(testFile))
  (await import("../../lib/app-context/app-context")).appContext();
