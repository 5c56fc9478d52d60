import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import type { S3StorageConfig } from "../../lib/storage/storage-config";

// The tests run on Node 20, which the AWS SDK's next releases will drop; its warning says so at
// every test file's first client. Said once in docs/dependencies.md instead.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

/** s3rver's built-in account: requests must be signed with its access key id (s3rver does not verify SigV4 signatures themselves). */
const ACCESS_KEY_ID = "S3RVER";
const SECRET_ACCESS_KEY = "S3RVER";

export interface RunningS3rver {
  endpoint: string;
  bucket: string;
  /** A config for a fresh prefix of the bucket, so each test or suite has its own store. */
  config(prefix?: string): S3StorageConfig;
  /** The environment that selects this server as the app's storage (STORAGE_URL and S3_*). */
  env(prefix: string): Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A real S3-compatible server (the npm s3rver package) on 127.0.0.1 at a free port, storing in a
 * temporary folder that `stop()` removes. The storage code talks S3's HTTP API to it; nothing is mocked.
 */
export async function startS3rver(bucket = "framejury-test"): Promise<RunningS3rver> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    config: (prefix = `t-${randomBytes(6).toString("hex")}/`) => ({
      kind: "s3",
      bucket,
      prefix,
      endpoint,
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET_ACCESS_KEY },
    }),
    env: (prefix) => ({
      STORAGE_URL: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: ACCESS_KEY_ID,
      S3_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
      S3_FORCE_PATH_STYLE: "1",
    }),
    stop: async () => {
      // The SDK keeps connections alive; close() alone would wait for them.
      const closed = server.close();
      server.httpServer?.closeAllConnections();
      await closed;
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
