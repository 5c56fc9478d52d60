import "server-only";
import { z } from "zod";
import type { Actor } from "@/lib/auth/actor";
import { isAppError, UnauthorizedError } from "@/lib/errors";
import { log } from "@/lib/observability/logger";
import { rejectNulBytes } from "@/lib/validation/nul-bytes";
import type { ActionResult } from "@/lib/api/action-result";
import { getPageActor } from "./actor";

export type { ActionResult };

/**
 * Runs a server action body for a signed-in user and turns expected failures into a message for
 * the form. Permission checks happen inside the lib functions it calls.
 */
export async function runAction(body: (actor: Actor) => Promise<ActionResult>): Promise<ActionResult> {
  try {
    const actor = await getPageActor();
    if (!actor) throw new UnauthorizedError("Your session ended: sign in again.");
    return await body(actor);
  } catch (error) {
    if (isAppError(error)) return { ok: false, error: error.message };
    if (error instanceof z.ZodError) return { ok: false, error: error.issues.map((issue) => issue.message).join(" ") };
    log().error({ err: error }, "server action failed");
    return { ok: false, error: "Something went wrong on the server." };
  }
}

export function formValues(formData: FormData): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of formData.entries()) if (typeof value === "string") values[key] = value;
  rejectNulBytes(values);
  return values;
}
