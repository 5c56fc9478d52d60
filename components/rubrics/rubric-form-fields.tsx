// The rubric editor's field parts: a labelled field with the problems found at its path, and the shared classes.
import type { ReactNode } from "react";
import type { RubricProblem } from "@/lib/rubrics/rubric-definition";

export const input = "w-full rounded border border-slate-300 bg-white px-2 py-1 text-sm disabled:bg-slate-50";
const labelText = "text-xs font-medium text-slate-700";

/** Problems at a field (its path, or a path inside it). */
function problemsAt(problems: RubricProblem[], path: string): RubricProblem[] {
  return problems.filter((p) => p.path === path || p.path.startsWith(`${path}.`));
}

export function FieldProblems({
  problems,
  path,
  exact = false,
}: {
  problems: RubricProblem[];
  path: string;
  exact?: boolean;
}) {
  const here = exact ? problems.filter((p) => p.path === path) : problemsAt(problems, path);
  if (here.length === 0) return null;
  return (
    <ul className="text-xs text-red-700" data-testid="field-problem" data-path={path}>
      {here.map((p, i) => (
        <li key={i}>{p.message}</li>
      ))}
    </ul>
  );
}

export function Field({
  label,
  children,
  problems,
  path,
  exact,
}: {
  label: string;
  children: ReactNode;
  problems: RubricProblem[];
  path: string;
  exact?: boolean;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label className="flex flex-col gap-1">
        <span className={labelText}>{label}</span>
        {children}
      </label>
      <FieldProblems problems={problems} path={path} exact={exact} />
    </div>
  );
}
