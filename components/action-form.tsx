"use client";

import { createContext, useActionState, useContext, useState, type FormEvent, type ReactNode } from "react";
import type { ActionResult } from "@/lib/api/action-result";
import { buttonClass } from "@/components/class-names";

type FormAction = (previous: ActionResult | null, formData: FormData) => Promise<ActionResult>;

/** What was typed into an ActionForm's fields when its last submission failed (nothing after a success). */
const FailedSubmissionValues = createContext<Record<string, string> | null>(null);

/** The text fields of a submitted form, passwords left out, so a failed submission never shows a password again. */
function typedValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const element of form.elements) {
    if (!(element instanceof HTMLInputElement) || !element.name || element.type === "password") continue;
    values[element.name] = element.value;
  }
  return values;
}

/**
 * A form bound to a server action: disables its button while pending and shows the action's
 * error or success message below it. `render` may show data the action returned (a new API key).
 * React resets the form when the action returns; after a failure its Fields come back with what was typed
 * (not passwords), so a wrong password does not clear the email.
 */
export function ActionForm({
  action,
  submitLabel,
  children,
  className = "flex flex-col gap-3",
  variant = "primary",
  render,
}: {
  action: FormAction;
  submitLabel: string;
  children?: ReactNode;
  className?: string;
  variant?: "primary" | "secondary" | "danger";
  render?: (result: ActionResult) => ReactNode;
}) {
  const [result, formAction, pending] = useActionState(action, null);
  // Read on submit, before React runs the action and later resets the form to its fields' defaults.
  const [submitted, setSubmitted] = useState<Record<string, string> | null>(null);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => setSubmitted(typedValues(event.currentTarget));
  return (
    <form action={formAction} onSubmit={onSubmit} className={className}>
      <FailedSubmissionValues.Provider value={result && !result.ok ? submitted : null}>
        {children}
      </FailedSubmissionValues.Provider>
      <div>
        <button type="submit" disabled={pending} className={buttonClass(variant)}>
          {pending ? "Working…" : submitLabel}
        </button>
      </div>
      {result && !result.ok && (
        <p role="alert" data-testid="form-error" className="text-sm text-red-700">
          {result.error}
        </p>
      )}
      {result?.ok && result.message && (
        <p role="status" className="text-sm text-emerald-700">
          {result.message}
        </p>
      )}
      {result && render?.(result)}
    </form>
  );
}

export function Field({
  label,
  name,
  type = "text",
  required = true,
  defaultValue,
  autoComplete,
  placeholder,
}: {
  label: string;
  name: string;
  type?: string;
  required?: boolean;
  defaultValue?: string;
  autoComplete?: string;
  placeholder?: string;
}) {
  const failedValues = useContext(FailedSubmissionValues);
  // The form's reset after a failed submission restores this default: what was typed, never a password.
  const shown = type !== "password" && failedValues && name in failedValues ? failedValues[name] : defaultValue;
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium text-slate-700">{label}</span>
      <input
        name={name}
        type={type}
        required={required}
        defaultValue={shown}
        autoComplete={autoComplete}
        placeholder={placeholder}
        className="rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm shadow-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500"
      />
    </label>
  );
}

export function RoleSelect({ name = "role", defaultValue = "reviewer" }: { name?: string; defaultValue?: string }) {
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium text-slate-700">Role</span>
      <select
        name={name}
        defaultValue={defaultValue}
        className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm shadow-sm"
      >
        <option value="owner">owner</option>
        <option value="reviewer">reviewer</option>
        <option value="viewer">viewer</option>
      </select>
    </label>
  );
}
