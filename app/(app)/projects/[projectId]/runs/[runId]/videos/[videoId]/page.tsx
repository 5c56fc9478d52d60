import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { CallSawView } from "@/components/judge/call-saw-view";
import { ReplayCall } from "@/components/judge/replay-call";
import { CodeWithName } from "@/components/tasks/target-legend";
import { prisma } from "@/lib/db/prisma";
import { isAppErrorCode } from "@/lib/errors";
import { inspectRunVideo } from "@/lib/judge/calls/call-inspector";
import type { TaskDeclaration } from "@/lib/task-modules/task-declaration";
import { meaningOf } from "@/lib/task-modules/task-display";
import { judgeValueSteps } from "@/lib/visibility/judge-visibility";
import { formatCost } from "@/lib/format/numbers";

type Step = Awaited<ReturnType<typeof inspectRunVideo>>["steps"][number];
type Call = Step["calls"][number];

/**
 * The call inspector: for each step, the rendered prompt, what each call showed the judge, the raw answer and the
 * parse result.
 */
export default async function CallInspectorPage({
  params,
}: {
  params: Promise<{ projectId: string; runId: string; videoId: string }>;
}) {
  const { projectId, runId, videoId } = await params;
  const { catalogue, access } = await requirePageProjectAccess(projectId);
  const inspection = await inspectRunVideo(prisma, access, runId, videoId).catch((error: unknown) => {
    if (isAppErrorCode(error, "not_found")) notFound();
    throw error;
  });
  const { run, video, steps, blind, canReplay } = inspection;
  const task = catalogue.findTask(run.pipeline);
  const scoring = judgeValueSteps(run.pipeline, catalogue.tasks);
  const withheld = (stepId: string) => blind && (scoring === null || scoring.has(stepId));
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-xl font-semibold tracking-tight">Call inspector</h1>
        <span className="text-sm text-slate-700" data-testid="inspector-subject">
          <code>{video.path}</code> in{" "}
          <Link href={`/projects/${projectId}/runs/${runId}`} className="text-indigo-700 underline">
            {run.name}
          </Link>
        </span>
        {run.simulated && (
          <span className="rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-800">
            simulated judgments (stub LLM)
          </span>
        )}
        <Link href={`/projects/${projectId}/runs/${runId}`} className="ml-auto text-sm text-indigo-700 underline">
          back to the run
        </Link>
      </div>
      {blind && (
        <p
          className="rounded-md border border-slate-300 bg-slate-50 p-3 text-sm text-slate-700"
          data-testid="inspector-blind"
        >
          You are reviewing this video in a blind queue: the scoring steps&apos; answers and calls are hidden until you
          submit your review.
        </p>
      )}
      {steps.map((step) => (
        <StepDetails
          key={step.id}
          step={step}
          task={task}
          withheld={withheld(step.stepId)}
          runId={runId}
          canReplay={canReplay}
        />
      ))}
    </div>
  );
}

/**
 * One step of the video: its status, scores and template, a notice when its answers are withheld from a blind
 * reviewer, its error, parsed output and calls.
 */
function StepDetails({
  step,
  task,
  withheld,
  runId,
  canReplay,
}: {
  step: Step;
  task: TaskDeclaration | null | undefined;
  withheld: boolean;
  runId: string;
  canReplay: boolean;
}) {
  return (
    <details
      className="rounded-lg border border-slate-200 bg-white p-3 text-sm"
      data-testid="inspector-step"
      data-status={step.status}
    >
      <summary className="cursor-pointer">
        <span className="font-medium">
          {step.stepId}[{step.scopeIndex}]
        </span>{" "}
        <span
          className={
            step.status === "done"
              ? "text-emerald-700"
              : step.status === "pending" || step.status === "running"
                ? "text-slate-500"
                : "text-red-700"
          }
        >
          {step.status}
        </span>
        {step.scores.length > 0 && (
          <span className="ml-2 text-xs text-slate-500" data-testid="inspector-scores">
            {step.scores.map((s, i) => (
              <span key={s.category}>
                {i > 0 && " "}
                <CodeWithName meaning={meaningOf(task, s.category)} code={s.category} showName={false} />={s.value}
              </span>
            ))}
          </span>
        )}
        <span className="ml-2 text-xs text-slate-500">
          template {step.templateId} {step.templateHash?.slice(0, 10)}
        </span>
      </summary>
      {withheld && (
        <p className="mt-2 text-slate-500" data-testid="inspector-step-hidden">
          Hidden until you submit your review.
        </p>
      )}
      {step.error && <p className="mt-2 text-red-700">{step.error}</p>}
      {step.output !== null && (
        <pre tabIndex={0} className="mt-2 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">
          {JSON.stringify(step.output, null, 2)}
        </pre>
      )}
      {step.calls.map((call) => (
        <CallDetails key={call.id} call={call} runId={runId} canReplay={canReplay} />
      ))}
    </details>
  );
}

/**
 * One call of a step: its cost and outcome, what it showed the judge (frames or clip, bytes, usage), the text sent,
 * the reasoning and the raw answer; an owner may replay it.
 */
function CallDetails({ call, runId, canReplay }: { call: Call; runId: string; canReplay: boolean }) {
  const request = call.request as {
    text?: string;
    frameIds?: string[];
    followUp?: { correction: string } | null;
  };
  return (
    <div className="mt-3 border-t border-slate-100 pt-2">
      <p className="text-xs text-slate-500">
        {call.isRepair ? "repair call" : "call"} · {call.cached ? "from cache" : `${call.latencyMs} ms`} ·{" "}
        {call.status === "lost"
          ? `lost (sent, unanswered: its worker died) · ~${call.promptTokens} tokens · ~${formatCost(call.costUsd)}, estimated`
          : call.status === "sent"
            ? `in flight · ~${call.promptTokens} tokens, estimated`
            : call.usageKnown
              ? `${call.promptTokens}+${call.completionTokens} tokens · ${formatCost(call.costUsd)}`
              : "tokens and cost unknown (no usage in the answer)"}
        {call.finishReason ? ` · finish ${call.finishReason}` : ""}
        {call.reportedModel && call.reportedModel !== call.model
          ? ` · asked ${call.model}, answered as ${call.reportedModel}`
          : ""}
        {call.error ? ` · ${call.error}` : ""}
      </p>
      {call.errorExcerpt && (
        <p className="mt-1 text-xs text-slate-600" data-testid="error-excerpt">
          The endpoint answered (excerpt, shown to owners only): <code className="break-all">{call.errorExcerpt}</code>
        </p>
      )}
      {call.saw ? (
        <CallSawView
          saw={call.saw}
          bytesSent={call.bytesSent}
          cached={call.cached}
          videoFrames={call.videoFrames}
          usage={{ ...call, answered: call.status === "answered" }}
        />
      ) : (
        <div className="mt-1 flex flex-wrap gap-1">
          {(request.frameIds ?? []).map((id) => (
            // eslint-disable-next-line @next/next/no-img-element
            <img key={id} src={`/api/v1/frames/${id}/image`} alt="frame sent to the judge" className="h-16 rounded" />
          ))}
        </div>
      )}
      <pre tabIndex={0} className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 text-xs">
        {request.text}
      </pre>
      {request.followUp && (
        <pre className="mt-1 whitespace-pre-wrap rounded bg-amber-50 p-2 text-xs">{request.followUp.correction}</pre>
      )}
      {call.reasoning && (
        <details className="mt-1 text-xs" data-testid="call-reasoning">
          <summary className="cursor-pointer text-slate-500">The model&apos;s reasoning (not parsed)</summary>
          <pre tabIndex={0} className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2">
            {call.reasoning}
          </pre>
        </details>
      )}
      <pre
        tabIndex={0}
        className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap rounded bg-indigo-50 p-2 text-xs"
        data-testid="raw-response"
      >
        {call.responseText ?? "(no answer)"}
      </pre>
      {canReplay && call.saw && <ReplayCall runId={runId} callId={call.id} />}
    </div>
  );
}
