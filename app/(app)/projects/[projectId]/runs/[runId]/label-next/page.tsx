import Link from "next/link";
import { z } from "zod";
import { notFound } from "next/navigation";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card } from "@/components/empty-state";
import { buttonClass } from "@/components/class-names";
import { CreateLabelQueue } from "@/components/label-next/create-label-queue";
import { SpanDisagreementCard } from "@/components/label-next/span-disagreement-card";
import { prisma } from "@/lib/db/prisma";
import { isAppError, isAppErrorCode } from "@/lib/errors";
import { labelNextChoicesOfRun, labelNextPlan, type LabelNextResult } from "@/lib/label-next/label-next";
import type { Interval } from "@/lib/label-next/sampling-plan";
import { formatPercent } from "@/lib/format/numbers";
import { WithheldNotice } from "@/components/leaderboard/withheld-notice";
import { WithheldError } from "@/lib/visibility/withheld";

const pct = (x: number) => formatPercent(x);
const range = (i: Interval) =>
  `${pct(i.estimate)} [${pct(i.lower)}, ${pct(i.upper)}] (±${(100 * i.halfWidth).toFixed(1)} pts)`;

/** Owners: which videos to label next so the judge's accuracy against human labels is known more surely. */
export default async function LabelNextPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string; runId: string }>;
  searchParams: Promise<{ budget?: string; strata?: string; criterion?: string }>;
}) {
  const { projectId, runId } = await params;
  const search = await searchParams;
  const { actor, catalogue } = await requirePageProjectAccess(projectId, "queues.manage");
  let plan: LabelNextResult | null = null;
  let problem: string | null = null;
  let withheld: WithheldError | null = null;
  try {
    plan = await labelNextPlan(prisma, actor, projectId, runId, {
      budget: search.budget,
      strata: search.strata,
      criterion: search.criterion,
    });
  } catch (error) {
    if (isAppErrorCode(error, "not_found")) notFound();
    if (error instanceof z.ZodError) problem = error.issues.map((i) => i.message).join(" ");
    else if (error instanceof WithheldError) withheld = error;
    else if (isAppError(error)) problem = error.message;
    else throw error;
  }
  if (plan && plan.projectId !== projectId) notFound();
  // A task without a verdict of its own (a rubric task) is planned on one of its criteria.
  const choices = await labelNextChoicesOfRun(prisma, projectId, runId);
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">What to label next</h1>
        <Link href={`/projects/${projectId}/runs/${runId}`} className="text-sm text-indigo-700 underline">
          back to the run
        </Link>
      </div>
      <p className="max-w-3xl text-sm text-slate-600">
        The judge&apos;s accuracy is the share of the run&apos;s videos where its verdict matches the humans&apos; (the
        majority of reviewers&apos; and label sets&apos; verdicts). The videos are cut into strata by the judge&apos;s
        score; each label goes where it narrows the interval most (Neyman allocation with a Beta(1, 1) prior on each
        stratum&apos;s accuracy), and videos are drawn at random within a stratum.
      </p>
      <LabelNextForm search={search} choices={choices} plan={plan} />
      {withheld && <WithheldNotice message={withheld.message} withheld={withheld.withheld} />}
      {problem && (
        <p role="alert" className="rounded bg-rose-50 px-3 py-2 text-sm text-rose-800" data-testid="label-next-error">
          {problem}
        </p>
      )}
      {plan && (
        <>
          <AccuracyCard plan={plan} />
          <StrataCard plan={plan} />
          <ProposedVideosCard plan={plan} projectId={projectId} runId={runId} />
          <SpanDisagreementCard
            projectId={projectId}
            runId={runId}
            ranking={plan.spans}
            mode={catalogue.findTask(plan.pipeline)?.presence ? "presence" : "full"}
          />
        </>
      )}
    </div>
  );
}

/** The judge's accuracy now and as expected after labelling the proposed videos, and which videos count. */
function AccuracyCard({ plan }: { plan: LabelNextResult }) {
  return (
    <Card title={`Accuracy of the ${plan.verdictMetric.label.toLowerCase()} verdict (95 % interval)`}>
      <dl className="grid grid-cols-[14rem_1fr] gap-x-3 gap-y-1.5 text-sm">
        <dt className="text-slate-500">Now</dt>
        <dd data-testid="label-next-current">{range(plan.current)}</dd>
        <dt className="text-slate-500">Expected after labelling {plan.videos.length}</dt>
        <dd data-testid="label-next-expected">{range(plan.expected)}</dd>
        <dt className="text-slate-500">Videos</dt>
        <dd>
          {plan.eligible} with a judge {plan.scoreMetric.label.toLowerCase()} and verdict
          {plan.excluded ? `; ${plan.excluded} without (left out)` : ""};{" "}
          {plan.strata.reduce((n, s) => n + s.labelled, 0)} labelled by humans
        </dd>
      </dl>
    </Card>
  );
}

/** The proposed videos, each a link, and the form that makes a review queue of them. */
function ProposedVideosCard({ plan, projectId, runId }: { plan: LabelNextResult; projectId: string; runId: string }) {
  return (
    <Card title={`Proposed videos (${plan.videos.length})`}>
      {plan.videos.length === 0 ? (
        <p className="text-sm text-slate-500">Nothing left to label: every eligible video has a human verdict.</p>
      ) : (
        <div className="flex flex-col gap-4">
          <ol className="list-decimal pl-6 text-sm" data-testid="label-next-videos">
            {plan.videos.map((v) => (
              <li key={v.id}>
                <Link href={`/projects/${projectId}/videos/${v.id}`} className="text-indigo-700 underline">
                  {v.relativePath}
                </Link>
              </li>
            ))}
          </ol>
          <CreateLabelQueue
            projectId={projectId}
            runId={runId}
            videoIds={plan.videos.map((v) => v.id)}
            queue={plan.queue}
            defaultName={`Label next: ${plan.videos.length} video${plan.videos.length === 1 ? "" : "s"}`}
          />
        </div>
      )}
    </Card>
  );
}

/** The plan's budget, its number of strata and, for a task planned on a criterion, which one. */
function LabelNextForm({
  search,
  choices,
  plan,
}: {
  search: { budget?: string; strata?: string; criterion?: string };
  choices: Awaited<ReturnType<typeof labelNextChoicesOfRun>>;
  plan: LabelNextResult | null;
}) {
  return (
    <form className="flex flex-wrap items-end gap-3 text-sm" method="get" data-testid="label-next-form">
      <label className="flex flex-col gap-1">
        Budget (videos)
        <input
          name="budget"
          type="number"
          min={1}
          max={10000}
          defaultValue={search.budget ?? "20"}
          className="w-28 rounded-md border border-slate-300 px-2 py-1.5"
          data-testid="label-next-budget"
        />
      </label>
      <label className="flex flex-col gap-1">
        Strata
        <input
          name="strata"
          type="number"
          min={1}
          max={20}
          defaultValue={search.strata ?? "5"}
          className="w-20 rounded-md border border-slate-300 px-2 py-1.5"
        />
      </label>
      {choices.criteria.length > 0 && (
        <label className="flex flex-col gap-1">
          Criterion
          <select
            name="criterion"
            defaultValue={plan?.criterion ?? search.criterion ?? ""}
            className="rounded-md border border-slate-300 px-2 py-1.5"
            data-testid="label-next-criterion"
          >
            {choices.verdict && <option value="">The task&apos;s verdict</option>}
            {choices.criteria.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
      )}
      <button className={buttonClass("secondary")} data-testid="label-next-propose">
        Propose
      </button>
    </form>
  );
}

function StrataCard({ plan }: { plan: LabelNextResult }) {
  return (
    <Card title={`Strata by the judge's ${plan.scoreMetric.label.toLowerCase()}`}>
      <table className="w-full text-left text-sm" data-testid="label-next-strata">
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th className="py-1">{plan.scoreMetric.label}</th>
            <th>Videos</th>
            <th>Labelled</th>
            <th>Judge agrees</th>
            <th>Accuracy (posterior mean)</th>
            <th>To label</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {plan.strata.map((s) => (
            <tr key={s.index} data-testid="label-next-stratum">
              <td className="py-1">
                {s.scoreMin.toFixed(1)}–{s.scoreMax.toFixed(1)}
              </td>
              <td>{s.size}</td>
              <td>{s.labelled}</td>
              <td>{s.agreeing}</td>
              <td>{pct(s.accuracy)}</td>
              <td className="font-medium">{s.proposed}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
