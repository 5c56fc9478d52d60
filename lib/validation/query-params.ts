import { z } from "zod";

/** A query or form value left empty counts as not given, so the parameter's default applies. */
export const blankAsMissing = (v: unknown) => (v === "" || v === null ? undefined : v);

/** A whole-number query parameter within [min, max], `fallback` when absent or blank; messages name it by `label`. */
export const intQueryParam = (min: number, max: number, fallback: number, label: string) =>
  z
    .preprocess(
      blankAsMissing,
      z.coerce
        .number()
        .int(`${label} must be a whole number.`)
        .min(min, `${label}: at least ${min}.`)
        .max(max, `${label}: at most ${max}.`)
        .optional(),
    )
    .transform((v) => v ?? fallback);
