import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { EmptyState } from "@/components/empty-state";
import { GoldVerdictForm } from "@/components/pairwise/boards/gold-verdict-form";
import { readOrProblem } from "@/components/pairwise/boards/page-problem";
import { PairSetPageFrame } from "@/components/pairwise/boards/pair-set-page-header";
import { prisma } from "@/lib/db/prisma";
import { pairDisagreements } from "@/lib/pairwise/pair-sets/gold";
import { searchParamsObject } from "@/lib/videos/video-filter";
import type { Verdict } from "@/lib/pairwise/verdicts";

const VERDICT_WORDS: Record<Verdict, string> = { A: "A", B: "B", tie_good: "both good", tie_bad: "both bad" };

/** Adjudication of a pair set: the pairs people disagree on, per aspect, each with its gold verdict (owners). */
export default async function PairGoldPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string; pairSetId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId, pairSetId } = await params;
  const { access } = await requirePageProjectAccess(projectId, "gold.set");
  const { aspect, after } = searchParamsObject(await searchParams);
  const { data, problem } = await readOrProblem(() => pairDisagreements(prisma, access, pairSetId, { aspect, after }));
  const base = `/projects/${projectId}/pairs/${pairSetId}/gold`;
  return (
    <PairSetPageFrame
      projectId={projectId}
      pairSetId={pairSetId}
      name={data?.pairSet.name ?? null}
      title="Gold verdicts"
      current="gold"
      owner
      intro={
        <>
          The pairs people gave different verdicts on, for each aspect. The gold verdict you set is what agreement and
          rater quality compare with; every change keeps its history, and a save over a newer gold is refused.
        </>
      }
      problem={problem}
    >
      {data && (
        <>
          <nav className="flex flex-wrap gap-3 text-sm" aria-label="Aspects">
            {data.aspects.map((a) =>
              a.id === data.aspect ? (
                <span key={a.id} className="font-medium" aria-current="page">
                  {a.label}
                </span>
              ) : (
                <Link key={a.id} href={`${base}?aspect=${a.id}`} className="text-indigo-700 underline">
                  {a.label}
                </Link>
              ),
            )}
          </nav>
          {data.disagreements.length === 0 ? (
            <EmptyState title="No disagreement">People agree on every pair of this aspect so far.</EmptyState>
          ) : (
            <ul className="flex flex-col gap-3" data-testid="pair-disagreements">
              {data.disagreements.map((pair) => (
                <li key={pair.pairId} className="rounded-md border border-slate-200 bg-white p-3">
                  <p className="text-sm">
                    <span className="font-medium">
                      #{pair.position + 1}: A {pair.generatorA} · B {pair.generatorB}
                    </span>{" "}
                    <span className="text-slate-600">{pair.prompt}</span>
                  </p>
                  <p className="text-sm text-slate-600">
                    People said: {pair.verdicts.map((v, i) => `${i ? ", " : ""}${VERDICT_WORDS[v.verdict]}`).join("")}
                  </p>
                  <GoldVerdictForm pairSetId={pairSetId} pairId={pair.pairId} aspect={data.aspect} gold={pair.gold} />
                </li>
              ))}
            </ul>
          )}
          {data.nextAfter !== null && (
            <Link
              href={`${base}?aspect=${data.aspect}&after=${data.nextAfter}`}
              className="self-start text-sm text-indigo-700 underline"
            >
              Next pairs
            </Link>
          )}
        </>
      )}
    </PairSetPageFrame>
  );
}
