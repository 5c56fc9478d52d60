import Link from "next/link";
import type { ReactNode } from "react";
import type { WithheldError } from "@/lib/visibility/withheld";
import { ProblemNote } from "./page-problem";

const TABS = [
  { id: "set", label: "Pair set", path: "" },
  { id: "leaderboard", label: "Leaderboard", path: "/leaderboard" },
  { id: "agreement", label: "Agreement", path: "/agreement" },
  { id: "raters", label: "Raters", path: "/raters" },
  { id: "gold", label: "Gold", path: "/gold" },
] as const;

/** Pages for owners only: the raters' quality and adjudication to gold verdicts. */
const OWNER_TABS: ReadonlySet<string> = new Set(["raters", "gold"]);

/** A pair set page's title, the set's name and the links between its pages (Raters and Gold for owners only). */
export function PairSetPageHeader({
  projectId,
  pairSetId,
  name,
  title,
  current,
  owner,
}: {
  projectId: string;
  pairSetId: string;
  name: string | null;
  title: string;
  current: (typeof TABS)[number]["id"];
  owner: boolean;
}) {
  const base = `/projects/${projectId}/pairs/${pairSetId}`;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {name && <span className="text-sm text-slate-600">{name}</span>}
        <Link href={`/projects/${projectId}/pairs`} className="text-sm text-indigo-700 underline">
          all pair sets
        </Link>
      </div>
      <nav className="flex flex-wrap gap-3 text-sm" aria-label="Pair set pages">
        {TABS.filter((tab) => !OWNER_TABS.has(tab.id) || owner).map((tab) =>
          tab.id === current ? (
            <span key={tab.id} className="font-medium" aria-current="page">
              {tab.label}
            </span>
          ) : (
            <Link
              key={tab.id}
              href={`${base}${tab.path}`}
              className="text-indigo-700 underline"
              data-testid={`pair-set-link-${tab.id}`}
            >
              {tab.label}
            </Link>
          ),
        )}
      </nav>
    </div>
  );
}

/**
 * A pair set page: its header, what the page shows (`intro`), why its data is missing or withheld when it is
 * (`problem`, `withheld`: see readOrProblem), then the page's own content.
 */
export function PairSetPageFrame({
  intro,
  problem,
  withheld = null,
  children,
  ...header
}: Parameters<typeof PairSetPageHeader>[0] & {
  intro?: ReactNode;
  problem: string | null;
  withheld?: WithheldError | null;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-5">
      <PairSetPageHeader {...header} />
      {intro && <p className="max-w-3xl text-sm text-slate-600">{intro}</p>}
      <ProblemNote problem={problem} withheld={withheld} />
      {children}
    </div>
  );
}
