"use client";

import { useActionState, type ReactNode } from "react";
import type { ActionResult } from "@/app/_server/action-result";
import { buttonClass } from "@/components/class-names";

type FormAction = (previous: ActionResult | null, formData: FormData) => Promise<ActionResult>;

/**
 * A form bound to a server action: disables its button while pending and shows the action's
 * error or success message below it. `render` may show data the action returned (a new API key).
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
  return (
    <form action={formAction} className={className}>
      {children}
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
  return (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-medium text-slate-700">{label}</span>
      <input
        name={name}
        type={type}
        required={required}
        defaultValue={defaultValue}
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
      <select name={name} defaultValue={defaultValue} className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm shadow-sm">
        <option value="owner">owner</option>
        <option value="reviewer">reviewer</option>
        <option value="viewer">viewer</option>
      </select>
    </label>
  );
}
