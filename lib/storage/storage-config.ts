import path from "node:path";
import { z } from "zod";
import { dataDir } from "../config/paths";

export interface S3StorageConfig {
  kind: "s3";
  bucket: string;
  /** "" or a prefix ending in "/", under which every key of this store lives. */
  prefix: string;
  /** An S3-compatible server's URL; unset means AWS S3 itself. */
  endpoint?: string;
  region: string;
  forcePathStyle: boolean;
  /** Unset: the AWS SDK's own credential chain (AWS_ACCESS_KEY_ID…, ~/.aws, instance roles). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export type StorageConfig = { kind: "local"; dir: string } | S3StorageConfig;

export class StorageConfigError extends Error {}

/** The variables that configure an S3 bucket's client. */
export const S3_VARIABLES = [
  "S3_ENDPOINT",
  "S3_REGION",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
  "S3_FORCE_PATH_STYLE",
] as const;

const nonEmpty = (value: string | undefined) => (value === undefined || value.trim() === "" ? undefined : value.trim());

// Bucket names as S3 allows them (3–63 lower-case letters, digits, dots, hyphens); the prefix is a
// key path of the characters storage keys may use, so no prefix can reach outside itself.
const storageUrlSchema = z
  .string()
  .regex(
    /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[A-Za-z0-9_\-./]*)?$/,
    "must look like s3://bucket or s3://bucket/prefix (a bucket name of 3–63 lower-case letters, digits, dots and hyphens; a prefix of letters, digits and _ - . /)",
  )
  .refine(
    (url) =>
      !url
        .slice("s3://".length)
        .split("/")
        .slice(1)
        .some((part) => part === "." || part === ".."),
    "the prefix may not contain . or .. segments",
  );

const envSchema = z
  .object({
    STORAGE_URL: storageUrlSchema,
    S3_ENDPOINT: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
    S3_REGION: z.string().min(1).optional(),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: z.enum(["0", "1", "true", "false"], { error: "must be 1 or 0" }).optional(),
    AWS_REGION: z.string().min(1).optional(),
  })
  // Checked whatever else is wrong, so one start-up error names every problem.
  .refine((env) => (env.S3_ACCESS_KEY_ID === undefined) === (env.S3_SECRET_ACCESS_KEY === undefined), {
    path: ["S3_ACCESS_KEY_ID"],
    message: "and S3_SECRET_ACCESS_KEY must be set together, or neither (then the AWS SDK's credential chain is used)",
    when: () => true,
  });

/**
 * Where this process stores videos and frames, from the environment: STORAGE_URL=s3://bucket/prefix
 * selects S3-compatible storage, unset keeps the local directory (STORAGE_DIR, default DATA_DIR/storage).
 * A malformed setting throws StorageConfigError naming every bad variable, so start-up stops with it.
 */
export function storageConfigFromEnv(env: Record<string, string | undefined> = process.env): StorageConfig {
  const storageUrl = nonEmpty(env.STORAGE_URL);
  if (!storageUrl) {
    const stray = S3_VARIABLES.filter((name) => nonEmpty(env[name]) !== undefined);
    if (stray.length) {
      throw new StorageConfigError(
        `Storage configuration: ${stray.join(", ")} ${stray.length === 1 ? "is" : "are"} set but STORAGE_URL is not, so videos would go to the local directory. Set STORAGE_URL=s3://bucket/prefix to use S3-compatible storage, or unset ${stray.join(", ")}.`,
      );
    }
    return {
      kind: "local",
      dir: path.resolve(/* turbopackIgnore: true */ env.STORAGE_DIR ?? path.join(dataDir(env), "storage")),
    };
  }
  const parsed = envSchema.safeParse({
    STORAGE_URL: storageUrl,
    ...Object.fromEntries([...S3_VARIABLES, "AWS_REGION"].map((name) => [name, nonEmpty(env[name])])),
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".") || "STORAGE_URL"} ${issue.message}`);
    throw new StorageConfigError(`Storage configuration: ${problems.join("; ")}.`);
  }
  const values = parsed.data;
  const [bucket, ...prefixParts] = values.STORAGE_URL.slice("s3://".length).split("/");
  const prefix = prefixParts.filter((part) => part !== "").join("/");
  return {
    kind: "s3",
    bucket: bucket!,
    prefix: prefix ? `${prefix}/` : "",
    endpoint: values.S3_ENDPOINT,
    region: values.S3_REGION ?? values.AWS_REGION ?? "us-east-1",
    // S3-compatible servers (MinIO, Ceph, Garage, s3rver) address buckets by path; AWS by host name.
    forcePathStyle:
      values.S3_FORCE_PATH_STYLE === undefined
        ? values.S3_ENDPOINT !== undefined
        : values.S3_FORCE_PATH_STYLE === "1" || values.S3_FORCE_PATH_STYLE === "true",
    credentials:
      values.S3_ACCESS_KEY_ID && values.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: values.S3_ACCESS_KEY_ID, secretAccessKey: values.S3_SECRET_ACCESS_KEY }
        : undefined,
  };
}

/** One line for start-up logs; never includes credentials. */
export function describeStorageConfig(config: StorageConfig): string {
  if (config.kind === "local") return `local directory ${config.dir}`;
  const where = config.endpoint ? `at ${config.endpoint}` : `on AWS S3 (${config.region})`;
  return `s3://${config.bucket}/${config.prefix} ${where}${config.forcePathStyle ? ", path-style" : ""}`;
}
