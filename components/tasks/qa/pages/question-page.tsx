import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { QaAnswerReviews } from "@/components/tasks/qa/qa-answer-reviews";
import { OutcomeBadge } from "@/components/tasks/qa/qa-format";
import { TaskCode } from "@/components/tasks/target-legend";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";
import { itemIdSchema } from "@/lib/items/items.validation";
import { type QaAnswerResult } from "@/lib/tasks/qa/qa-run-questions";
import { questionDetail } from "@/lib/tasks/qa/visible-qa-results";
import { describeResize } from "@/lib/frames/frame-plan";
import { BUILT_IN_DECLARATIONS } from "@/lib/tasks/registry";
import { runDate } from "@/lib/run-records/run-name";

function Decision({ result, testId }: { result: QaAnswerResult; testId: string }) {
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid={testId}>
      <div className="flex items-center gap-2">
        <TaskCode task={BUILT_IN_DECLARATIONS.taskOf("qa")} code="correctness" />
        <OutcomeBadge outcome={result.outcome} testId={`${testId}-outcome`} />
        {result.decidedBy === "letter" && (
          <span data-testid={`${testId}-letter`}>
            letter <b>{result.letter}</b>, read by FrameJury (no judge call)
          </span>
        )}
        {result.decidedBy === "judge" && (
          <span data-testid={`${testId}-judge`}>
            the judge said <b>{result.judgement}</b>
          </span>
        )}
      </div>
      <div>
        <div className="text-xs font-medium uppercase text-slate-500">The model&apos;s answer, as given</div>
        <pre className="whitespace-pre-wrap rounded bg-slate-50 p-2 text-sm" data-testid={`${testId}-raw-answer`}>
          {result.rawAnswer ?? "(no answer)"}
        </pre>
        {result.finishReason === "length" && (
          <p className="text-xs text-amber-700">The answer was cut off at the token limit.</p>
        )}
      </div>
      {result.extraction && (
        <p className="text-slate-600" data-testid={`${testId}-extraction`}>
          No single letter could be read ({result.extraction}), so the judge decided.
        </p>
      )}
      {result.reason && (
        <p className="text-slate-700" data-testid={`${testId}-reason`}>
          <span className="text-xs font-medium uppercase text-slate-500">
            {result.outcome === "unanswerable" ? "Why no decision" : "Reason"}
          </span>{" "}
          {result.reason}
        </p>
      )}
    </div>
  );
}

/** A question's page: the question, and each run's answer, the frames it saw, reviewers' values and its text-only baseline. */
export default async function QuestionPage({ params }: { params: Promise<{ projectId: string; questionId: string }> }) {
  const { projectId, questionId: rawId } = await params;
  const { actor, role, access } = await requirePageProjectAccess(projectId);
  const id = itemIdSchema.safeParse(rawId);
  if (!id.success) notFound();
  let detail: Awaited<ReturnType<typeof questionDetail>>;
  try {
    detail = await questionDetail(prisma, access, id.data);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  if (detail.projectId !== projectId) notFound();
  const { question } = detail;
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Question" />
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <Link className="text-indigo-700 underline" href={`/projects/${projectId}/qa`}>
          all QA results
        </Link>
        <span>
          {question.format === "mc" ? "Multiple-choice" : "Open-ended"} question {question.externalId} about{" "}
          <Link
            className="font-mono text-xs text-indigo-700 underline"
            href={`/projects/${projectId}/videos/${question.video.id}`}
          >
            {question.video.relativePath}
          </Link>
        </span>
      </div>
      <QuestionCard question={question} />
      {detail.blind && (
        <p className="rounded-md bg-slate-800 px-3 py-2 text-sm text-white" data-testid="qa-blind">
          You are reviewing this video in a blind queue: the judge&apos;s decisions are shown once you submit.
        </p>
      )}
      {detail.results.length === 0 && (
        <p className="text-sm text-slate-500">No QA run has answered this question yet.</p>
      )}
      {detail.results.map(({ run, frameSet, scoreId, result, textOnly, rightWithoutVideo }) => (
        <Card
          key={run.id}
          title={`${run.label} · ${runDate(run.createdAt)}`}
          actions={
            <span className="flex items-center gap-2 text-sm">
              {run.simulated && <span className="rounded bg-amber-100 px-1.5 text-xs text-amber-800">simulated</span>}
              {run.judgeModel && <span className="text-xs text-slate-500">judge {run.judgeModel}</span>}
              <Link className="text-indigo-700 underline" href={`/projects/${projectId}/runs/${run.id}`}>
                run
              </Link>
              <Link
                className="text-indigo-700 underline"
                href={`/projects/${projectId}/agreement?runId=${run.id}`}
                data-testid="qa-run-agreement"
              >
                agreement
              </Link>
            </span>
          }
        >
          <div className="flex flex-col gap-4" data-testid="qa-result" data-run={run.id} data-model={run.model}>
            <FramesTheModelSaw frameSet={frameSet} resize={run.settings.resize} />
            <Decision result={result} testId="qa-with-frames" />
            <QaAnswerReviews
              runId={run.id}
              videoId={question.video.id}
              questionId={question.id}
              scoreId={scoreId}
              judgeValue={result.outcome === "correct" ? 1 : result.outcome === "wrong" ? 0 : null}
              decidedBy={result.decidedBy}
              canReview={roleCan(role, "scores.review")}
              currentUserId={actor.userId}
            />
            {textOnly && <TextOnlyDecision textOnly={textOnly} rightWithoutVideo={rightWithoutVideo} />}
          </div>
        </Card>
      ))}
    </div>
  );
}

type QuestionResult = Awaited<ReturnType<typeof questionDetail>>["results"][number];

/** The frames a run showed the model (their count and resize), or none. */
function FramesTheModelSaw({
  frameSet,
  resize,
}: {
  frameSet: QuestionResult["frameSet"];
  resize: QuestionResult["run"]["settings"]["resize"];
}) {
  return (
    <div>
      <div className="mb-1 text-xs font-medium uppercase text-slate-500">
        The frames the model saw ({frameSet ? `${frameSet.frameCount}, ${describeResize(resize)}` : "none"})
      </div>
      {frameSet && (
        <div className="grid grid-cols-4 gap-2 md:grid-cols-8" data-testid="qa-frames">
          {frameSet.frames.map((f) => (
            <figure key={f.id} className="text-xs text-slate-500">
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img
                src={`/api/v1/frames/${f.id}/image`}
                alt={`frame ${f.index} at ${f.timestampS.toFixed(2)} s`}
                className="w-full rounded border border-slate-200"
              />
              <figcaption>
                {f.timestampS.toFixed(2)} s · {f.width}×{f.height}
              </figcaption>
            </figure>
          ))}
        </div>
      )}
    </div>
  );
}

/** The text-only baseline's decision, flagged when it answered right without the video. */
function TextOnlyDecision({
  textOnly,
  rightWithoutVideo,
}: {
  textOnly: NonNullable<QuestionResult["textOnly"]>;
  rightWithoutVideo: QuestionResult["rightWithoutVideo"];
}) {
  return (
    <div className="border-t border-slate-100 pt-3">
      <div className="mb-1 flex items-center gap-2 text-xs font-medium uppercase text-slate-500">
        Without the video (text-only baseline)
        {rightWithoutVideo && (
          <span
            className="rounded bg-violet-100 px-1.5 text-xs normal-case text-violet-800"
            data-testid="flag-right-without-video"
          >
            answered right without the video
          </span>
        )}
      </div>
      <Decision result={textOnly} testId="qa-text-only" />
    </div>
  );
}

/** The question, its options (the correct one marked) or its reference answer, its category and granularity. */
function QuestionCard({ question }: { question: Awaited<ReturnType<typeof questionDetail>>["question"] }) {
  return (
    <Card title="Question">
      <div className="flex flex-col gap-3 text-sm">
        <p className="text-base" data-testid="question-text">
          {question.question}
        </p>
        {question.options && (
          <ol className="flex flex-col gap-1" data-testid="question-options">
            {Object.entries(question.options).map(([letter, text]) => (
              <li
                key={letter}
                data-testid="question-option"
                data-letter={letter}
                data-correct={letter === question.answer}
                className={letter === question.answer ? "font-medium text-emerald-800" : ""}
              >
                {letter}. {text}
                {letter === question.answer && (
                  <span className="ml-2 rounded bg-emerald-100 px-1 text-xs">correct</span>
                )}
              </li>
            ))}
          </ol>
        )}
        {question.format === "open" && (
          <p data-testid="question-reference">
            <span className="text-xs font-medium uppercase text-slate-500">Reference answer</span> {question.answer}
          </p>
        )}
        <p className="text-xs text-slate-500">
          category {question.category ?? "none"} · granularity {question.granularity ?? "none"}
        </p>
      </div>
    </Card>
  );
}
