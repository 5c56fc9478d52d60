// The stand-in's `minio server <dir> …` (deploy/test/minio.Dockerfile): s3rver on 127.0.0.1:9000 storing in <dir>,
// accepting the MINIO_ROOT_USER/MINIO_ROOT_PASSWORD key pair. Other MinIO flags (--console-address) are ignored.
import fs from "node:fs";
import S3rver from "s3rver";
import account from "s3rver/lib/models/account.js";

const [command, directory = "/data"] = process.argv.slice(2);
if (command !== "server") {
  console.error(`[minio stand-in] only "server <dir>" is supported, not ${JSON.stringify(command)}`);
  process.exit(64);
}
const user = process.env.MINIO_ROOT_USER;
const password = process.env.MINIO_ROOT_PASSWORD;
if (!user || !password) {
  console.error("[minio stand-in] MINIO_ROOT_USER and MINIO_ROOT_PASSWORD must be set");
  process.exit(64);
}
account.DUMMY_ACCOUNT.createKeyPair(user, password);
// s3rver answers a listing with an error while its folder is missing (a container run without the volume).
fs.mkdirSync(directory, { recursive: true });
// Buckets by path only, as MinIO with a host name like `minio`: s3rver would read that name as a bucket's.
const server = new S3rver({ address: "127.0.0.1", port: 9000, directory, silent: true, vhostBuckets: false });
await server.run();
console.log(`[minio stand-in] s3rver on 127.0.0.1:9000, storing in ${directory}`);
// PID 1 gets no default signal handling: stop on docker stop's SIGTERM.
for (const signal of ["SIGTERM", "SIGINT"]) process.on(signal, () => process.exit(0));
