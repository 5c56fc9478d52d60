import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { S3_STORAGE_VARIABLES } from "../storage/storage-config";
// The task registry installs the task modules the core reads (lib/task-modules/installed-task-modules.ts).
import "../tasks/modules";

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
process.env.STORAGE_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "framejury-storage-"));
