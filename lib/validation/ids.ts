import { z } from "zod";

/**
 * An id in a URL path as most /api/v1 routes take it: any text of 1–64 characters, since an id that
 * names nothing is the lookup's 404, not a 400. Shared by the routes and their OpenAPI description.
 */
export const recordIdSchema = z.string().min(1).max(64);
