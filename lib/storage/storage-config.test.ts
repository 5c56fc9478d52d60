import { describe, expect, it } from "vitest";
import { describeStorageConfig, StorageConfigError, storageConfigFromEnv } from "./storage-config";

describe("storageConfigFromEnv", () => {
  it("without STORAGE_URL: the local directory, STORAGE_DIR or DATA_DIR/storage", () => {
    expect(storageConfigFromEnv({ STORAGE_DIR: "/srv/store" })).toEqual({ kind: "local", dir: "/srv/store" });
    expect(storageConfigFromEnv({ DATA_DIR: "/srv/data" })).toEqual({ kind: "local", dir: "/srv/data/storage" });
  });

  it("s3://bucket/prefix with an S3-compatible endpoint: path-style by default, explicit keys", () => {
    const config = storageConfigFromEnv({
      STORAGE_URL: "s3://lab-videos/framejury/prod/",
      S3_ENDPOINT: "http://minio.lab:9000",
      S3_ACCESS_KEY_ID: "AKIA",
      S3_SECRET_ACCESS_KEY: "secret",
    });
    expect(config).toEqual({
      kind: "s3",
      bucket: "lab-videos",
      prefix: "framejury/prod/",
      endpoint: "http://minio.lab:9000",
      region: "us-east-1",
      forcePathStyle: true,
      credentials: { accessKeyId: "AKIA", secretAccessKey: "secret" },
    });
    expect(describeStorageConfig(config)).toBe("s3://lab-videos/framejury/prod/ at http://minio.lab:9000, path-style");
    expect(describeStorageConfig(config)).not.toContain("secret");
  });

  it("AWS itself: no endpoint, virtual-hosted, region from S3_REGION or AWS_REGION, the SDK's credential chain", () => {
    expect(storageConfigFromEnv({ STORAGE_URL: "s3://lab-videos", AWS_REGION: "eu-west-3" })).toEqual({
      kind: "s3",
      bucket: "lab-videos",
      prefix: "",
      endpoint: undefined,
      region: "eu-west-3",
      forcePathStyle: false,
      credentials: undefined,
    });
    expect(
      storageConfigFromEnv({
        STORAGE_URL: "s3://lab-videos/x",
        S3_REGION: "us-west-2",
        AWS_REGION: "eu-west-3",
        S3_FORCE_PATH_STYLE: "1",
      }),
    ).toMatchObject({
      region: "us-west-2",
      forcePathStyle: true,
      prefix: "x/",
    });
    expect(
      storageConfigFromEnv({
        STORAGE_URL: "s3://lab-videos",
        S3_ENDPOINT: "https://r2.example",
        S3_FORCE_PATH_STYLE: "0",
      }),
    ).toMatchObject({ forcePathStyle: false });
  });

  it("refuses malformed settings with every problem named", () => {
    const refused = (env: Record<string, string>) => {
      try {
        storageConfigFromEnv(env);
      } catch (error) {
        expect(error).toBeInstanceOf(StorageConfigError);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(refused({ STORAGE_URL: "https://bucket/prefix" })).toMatch(
      /^Storage configuration: STORAGE_URL must look like s3:\/\/bucket or s3:\/\/bucket\/prefix/,
    );
    expect(refused({ STORAGE_URL: "s3://Upper_Case" })).toMatch(/STORAGE_URL must look like/);
    expect(refused({ STORAGE_URL: "s3://bucket/a/../b" })).toMatch(
      /STORAGE_URL the prefix may not contain \. or \.\. segments/,
    );
    const several = refused({
      STORAGE_URL: "s3://bucket",
      S3_ENDPOINT: "minio:9000",
      S3_FORCE_PATH_STYLE: "yes",
      S3_ACCESS_KEY_ID: "only-the-id",
    });
    expect(several).toContain("S3_ENDPOINT must be an http:// or https:// URL");
    expect(several).toContain("S3_FORCE_PATH_STYLE must be 1 or 0");
    expect(several).toContain("S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together, or neither");
    expect(refused({ S3_ENDPOINT: "http://minio:9000" })).toBe(
      "Storage configuration: S3_ENDPOINT is set but STORAGE_URL is not, so videos would go to the local directory. Set STORAGE_URL=s3://bucket/prefix to use S3-compatible storage, or unset S3_ENDPOINT.",
    );
  });
});
