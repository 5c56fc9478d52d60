import Link from "next/link";
import { notFound } from "next/navigation";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { RunProgress } from "@/components/judge/run-progress";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { blindVideoIdsFor } from "@/lib/queues/blind";

interface VideoSummary {
  S?: number | null;
  D?: number | null;
  I?: number | null;
  overall?: number | null;
  hallucination?: boolean | null;
  complete?: boolean;
}

const fmt = (v: number | null | undefined) => (v === null || v === undefined ? "—" : v.toFixed(1));

export default async function RunPage({ params }: { params: Promise<{ projectId: string; runId: string }> }) {
  const { projectId, runId } = await params;
  const { actor, role } = await requirePageProjectAccess(projectId);
  const run = await prisma.judgeRun.findFirst({ where: { id: runId, projectId }, include: { endpoint: { select: { name: true, model: true } } } });
  if (!run) notFound();
  const videos = await prisma.runVideo.findMany({
    where: { runId },
    include: { video: { select: { id: true, fileName: true, prompt: true } } },
    orderBy: { video: { relativePath: "asc" } },
    take: 1000,
  });
  // Videos this user reviews in a blind queue and has not submitted: no judge values for them.
  const blind = await blindVideoIdsFor(prisma, actor.userId, videos.map((rv) => rv.videoId));
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Run · {run.pipeline}</h1>
        <span className="text-sm text-slate-500">
          {run.endpoint.name} ({run.endpoint.model}) · started {run.createdAt.toLocaleString()}
        </span>
        {run.simulated && <span className="rounded bg-amber-100 px-2 py-0.5 text-xs text-amber-800">simulated judgments (stub LLM)</span>}
        <Link href={`/projects/${projectId}/judge`} className="ml-auto text-sm text-indigo-700 underline">
          all runs
        </Link>
      </div>
      <RunProgress runId={runId} canManage={roleCan(role, "runs.manage")} />
      <table className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm" data-testid="run-videos">
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th className="px-3 py-2">Video</th>
            <th>Status</th>
            <th title="prompt inconsistency 0–10">I</th>
            <th title="static hallucination 0–10">S</th>
            <th title="dynamic hallucination 0–10">D</th>
            <th title="100 − 2I − 4S − 4D">Overall</th>
            <th>Hallucination</th>
            <th />
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {videos.map((rv) => {
            const hidden = blind.has(rv.videoId);
            const s = (hidden ? {} : (rv.summary ?? {})) as VideoSummary;
            return (
              <tr key={rv.videoId} data-testid="run-video">
                <td className="max-w-xs truncate px-3 py-2" title={rv.video.prompt ?? ""}>
                  <Link href={`/projects/${projectId}/videos/${rv.videoId}`} className="text-indigo-700 underline">
                    {rv.video.fileName}
                  </Link>
                </td>
                <td>
                  {rv.status}
                  {hidden && <span className="ml-1 rounded bg-slate-800 px-1 text-xs text-white" data-testid="run-video-blind" title="You are reviewing this video in a blind queue: shown once you submit">blind</span>}
                </td>
                <td>{fmt(s.I)}</td>
                <td>{fmt(s.S)}</td>
                <td>{fmt(s.D)}</td>
                <td className="font-medium">{fmt(s.overall)}</td>
                <td>
                  {s.hallucination === undefined || s.hallucination === null ? "—" : s.hallucination ? "yes" : "no"}
                  {s.complete === false && <span className="ml-1 text-xs text-amber-700">(incomplete)</span>}
                </td>
                <td>
                  {!hidden && (
                    <Link href={`/projects/${projectId}/runs/${runId}/videos/${rv.videoId}`} className="text-xs text-indigo-700 underline">
                      calls
                    </Link>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
