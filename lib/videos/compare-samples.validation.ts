import { z } from "zod";
import { NUL_BYTE_MESSAGE, noNulBytes } from "../validation/nul-bytes";

/** `?videoId=` or `?prompt=`, and optionally `&model=` (one generator model; empty = videos without a model). */
export const compareQuerySchema = z
  .object({
    videoId: z.string().min(1).max(64).optional(),
    prompt: z.string().min(1).max(5000).refine(noNulBytes, NUL_BYTE_MESSAGE).optional(),
    model: z.string().max(300).refine(noNulBytes, NUL_BYTE_MESSAGE).optional(),
  })
  .refine((q) => q.videoId !== undefined || q.prompt !== undefined, { message: "name a videoId or a prompt" });
