import { S3_VARIABLES } from "../../lib/storage/storage-config";

/** Every variable that can move storage to S3: test set-ups clear them so tests never write to a real bucket. */
export const S3_STORAGE_VARIABLES = ["STORAGE_URL", ...S3_VARIABLES] as const;
