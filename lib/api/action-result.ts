/**
 * What a server action answers its form: a message (and values to show) on success, the error to show otherwise.
 * Here, below components/ and app/, since the form (components/action-form.tsx) and the actions (app/) both name it.
 */
export type ActionResult = { ok: true; message?: string; data?: Record<string, string> } | { ok: false; error: string };
