import Link from "next/link";
import type { ReactNode } from "react";
import { notFound } from "next/navigation";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { CaptionType, Flag } from "@/components/tasks/captions/caption-format";
import { CaptionReviews } from "@/components/tasks/captions/caption-reviews";
import { roleCan } from "@/lib/authz/permissions";
import { Card } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { CodeWithName, TaskCode } from "@/components/tasks/target-legend";
import { countSentences, countWords, WORD_COUNTING_LABELS } from "@/lib/tasks/captions/count-words";
import { prisma } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";
import { getItem } from "@/lib/items/items";
import { itemIdSchema } from "@/lib/items/items.validation";
import { type ContentResult, type StyleResult } from "@/lib/tasks/captions/caption-run-results";
import { BUILT_IN_DECLARATIONS } from "@/lib/tasks/registry";
import { captionDetail } from "@/lib/tasks/captions/visible-caption-results";
import { runName } from "@/lib/run-records/run-name";
import { formatPercent } from "@/lib/format/numbers";

const RULE_NAMES: Record<string, string> = {
  brief_detail_10pct: "±10% of the reference's word count (brief and detail, seed 003)",
  instruction_restriction: "the instruction's own length restriction",
};

function Text({ label, text, testId }: { label: string; text: string; testId: string }) {
  return (
    <div>
      <div className="text-xs font-medium uppercase text-slate-500">{label}</div>
      <p className="whitespace-pre-wrap text-sm" data-testid={testId}>
        {text}
      </p>
    </div>
  );
}

function StylePanel({ style }: { style: StyleResult }) {
  const task = BUILT_IN_DECLARATIONS.taskOf("caption_style");
  if (style.status !== "done") {
    return (
      <p className="text-sm text-slate-600" data-testid="style-status">
        {style.status}
        {style.error ? `: ${style.error}` : ""}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-3 text-sm">
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        <dt>
          <TaskCode task={task} code="style_raw" />
        </dt>
        <dd className="tabular-nums" data-testid="style-raw">
          {style.rawScore}
        </dd>
        <dt>Cap from the rules</dt>
        <dd className="tabular-nums" data-testid="style-cap">
          {style.cap ?? "none"}
        </dd>
        <dt>Score after the rules</dt>
        <dd className="tabular-nums" data-testid="style-after">
          {style.scoreAfterRules}
        </dd>
        <dt>
          <TaskCode task={task} code="style" /> (counts)
        </dt>
        <dd className="tabular-nums" data-testid="style-counted">
          {style.countedScore}{" "}
          <span className="text-xs text-slate-500">
            ({style.counted === "judge" ? "the judge's own, by the run's setting" : "after the rules"})
          </span>
        </dd>
      </dl>
      <div className="flex gap-2">
        <Flag
          on={style.flags?.judgeBrokeRule ?? false}
          label="the judge broke the rule: it scored above the cap"
          testId="flag-broke-rule"
        />
        <Flag on={style.flags?.lengthViolation ?? false} label="length rule failed" testId="flag-length-violation" />
      </div>
      {style.counts && (
        <p className="text-xs text-slate-500" data-testid="word-counting" data-counting={style.counts.counting}>
          Words and sentences counted: {WORD_COUNTING_LABELS[style.counts.counting]}, by the run&apos;s setting.
        </p>
      )}
      <table className="w-full text-left text-sm" data-testid="length-rules">
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th className="py-1">rule</th>
            <th>result</th>
            <th>counts</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {(style.rules ?? []).map((rule) => (
            <tr
              key={rule.id}
              data-testid="length-rule"
              data-rule={rule.id}
              data-result={!rule.applies ? "n/a" : rule.passed ? "pass" : "fail"}
            >
              <td className="py-1 pr-3 align-top">{RULE_NAMES[rule.id] ?? rule.id}</td>
              <td className={`pr-3 align-top font-medium ${rule.applies && !rule.passed ? "text-red-700" : ""}`}>
                {!rule.applies ? "does not apply" : rule.passed ? "passed" : "failed"}
              </td>
              <td className="align-top text-slate-600">{rule.detail}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <Text label="The judge's reason" text={style.reason ?? ""} testId="style-reason" />
    </div>
  );
}

function ContentPanel({ content }: { content: ContentResult }) {
  return (
    <div className="flex flex-col gap-3 text-sm">
      <p data-testid="content-total">
        {content.hit === null
          ? `${content.status}${content.error ? `: ${content.error}` : ""}`
          : `${content.hit} of ${content.total} key points hit (coverage ${formatPercent(content.coverage ?? 0)})`}
      </p>
      <table className="w-full text-left text-sm" data-testid="key-points">
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th className="py-1">key point</th>
            <th>score</th>
            <th>reason</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {content.keyPoints.map((kp) => (
            <tr key={kp.index} data-testid="key-point" data-score={kp.score ?? ""}>
              <td className="py-1 pr-3 align-top">
                <CodeWithName
                  meaning={{
                    id: `kp:${kp.index}`,
                    label: kp.keyPoint,
                    definition: `Key point ${kp.index} of the reference: hit (1) when the caption states it, else missed (0).`,
                  }}
                  code={`kp:${kp.index}`}
                />
              </td>
              <td className="pr-3 align-top tabular-nums">{kp.score ?? "—"}</td>
              <td className="align-top text-slate-600">{kp.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The caption page: the caption, its video's frames, and each run's judgment of it with reviewers' values. */
export default async function CaptionPage({ params }: { params: Promise<{ projectId: string; captionId: string }> }) {
  const { projectId, captionId: rawId } = await params;
  const { actor, role, catalogue, access } = await requirePageProjectAccess(projectId);
  const id = itemIdSchema.safeParse(rawId);
  if (!id.success) notFound();
  let caption: Awaited<ReturnType<typeof getItem>>;
  let detail: Awaited<ReturnType<typeof captionDetail>>;
  try {
    [caption, detail] = await Promise.all([getItem(prisma, access, id.data), captionDetail(prisma, access, id.data)]);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  if (caption.projectId !== projectId || !("output" in caption)) notFound();
  const reference = caption.reference;
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Caption" />
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <Link className="text-indigo-700 underline" href={`/projects/${projectId}/captions`}>
          all captions
        </Link>
        <span>
          <CaptionType type={caption.captionType} /> caption by <b data-testid="caption-model">{caption.model}</b> of{" "}
          <Link
            className="font-mono text-xs text-indigo-700 underline"
            href={`/projects/${projectId}/videos/${caption.video.id}`}
          >
            {caption.video.relativePath}
          </Link>{" "}
          (id {caption.externalId})
        </span>
      </div>
      <FramesCard projectId={projectId} detail={detail} canImport={roleCan(role, "videos.import")} />
      <CaptionTextCard caption={caption} />
      {detail.results.length === 0 && (
        <p className="text-sm text-slate-500">No caption run has judged this caption yet.</p>
      )}
      {detail.blind && (
        <p
          className="rounded-md border border-slate-300 bg-slate-50 p-3 text-sm text-slate-700"
          data-testid="caption-blind"
        >
          You are reviewing this video in a blind queue: the judge&apos;s scores and reasons are hidden until you submit
          it there.
        </p>
      )}
      {detail.results.map(({ run, result, scores }) => (
        <RunResultCard key={run.id} projectId={projectId} run={run} catalogue={catalogue}>
          {!result.blind && result.style && <StylePanel style={result.style} />}
          {!result.blind && result.content && <ContentPanel content={result.content} />}
          <CaptionReviews
            pipeline={run.pipeline}
            runId={run.id}
            videoId={detail.videoId}
            captionId={caption.id}
            scores={scores}
            keyPoints={reference?.keyPoints ?? []}
            canReview={roleCan(role, "scores.review")}
            currentUserId={actor.userId}
          />
        </RunResultCard>
      ))}
    </div>
  );
}

/** The uniform frames the caption judges see (or where to extract them). */
function FramesCard({
  projectId,
  detail,
  canImport,
}: {
  projectId: string;
  detail: Awaited<ReturnType<typeof captionDetail>>;
  canImport: boolean;
}) {
  return (
    <Card title={detail.frameSet ? `Frames (${detail.frameSet.mode}, ${detail.frameSet.frameCount})` : "Frames"}>
      {detail.frameSet ? (
        <div className="grid grid-cols-4 gap-2 md:grid-cols-8" data-testid="caption-frames">
          {detail.frameSet.frames.map((f) => (
            <figure key={f.id} className="text-xs text-slate-500">
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img
                src={`/api/v1/frames/${f.id}/image`}
                alt={`frame ${f.index} at ${f.timestampS.toFixed(2)} s`}
                className="w-full rounded border border-slate-200"
              />
              <figcaption>{f.timestampS.toFixed(2)} s</figcaption>
            </figure>
          ))}
        </div>
      ) : (
        <p className="text-sm text-slate-500">
          No uniform frame set yet
          {canImport ? (
            <>
              :{" "}
              <Link className="text-indigo-700 underline" href={`/projects/${projectId}/pending?uniform=8`}>
                extract it
              </Link>
            </>
          ) : (
            " (an owner extracts it)"
          )}
          .
        </p>
      )}
    </Card>
  );
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

type CaptionItem = Extract<Awaited<ReturnType<typeof getItem>>, { output: string }>;

/** The caption under review: the reference's instruction, restriction and text (when it has one), and the output. */
function CaptionTextCard({ caption }: { caption: CaptionItem }) {
  const reference = caption.reference;
  return (
    <Card title="Caption">
      <div className="flex flex-col gap-3">
        {reference && <Text label="Instruction" text={reference.instruction} testId="caption-instruction" />}
        {reference && reference.restriction[1] && (
          <Text label="Restriction" text={reference.restriction[1]} testId="caption-restriction" />
        )}
        {reference && (
          <Text
            label={`Reference (${plural(countWords(reference.reference), "word")})`}
            text={reference.reference}
            testId="caption-reference"
          />
        )}
        <Text
          label={`Output (${plural(countWords(caption.output), "word")}, ${plural(countSentences(caption.output), "sentence")})`}
          text={caption.output}
          testId="caption-output"
        />
      </div>
    </Card>
  );
}

/** One run's card of the caption: the run's name, whether its judgments are simulated, its link, and its results. */
function RunResultCard({
  projectId,
  run,
  catalogue,
  children,
}: {
  projectId: string;
  run: Awaited<ReturnType<typeof captionDetail>>["results"][number]["run"];
  catalogue: Parameters<typeof runName>[1];
  children: ReactNode;
}) {
  return (
    <Card
      title={runName(
        {
          pipeline: run.pipeline,
          endpointName: run.endpointName,
          model: null,
          createdAt: run.createdAt,
        },
        catalogue,
      )}
      actions={
        <span className="flex items-center gap-2 text-sm">
          {run.simulated && (
            <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-800">simulated judgments</span>
          )}
          <Link
            className="text-indigo-700 underline"
            href={`/projects/${projectId}/runs/${run.id}`}
            data-testid={`run-link-${run.pipeline}`}
          >
            run
          </Link>
        </span>
      }
    >
      <div data-testid={`result-${run.pipeline}`}>{children}</div>
    </Card>
  );
}
