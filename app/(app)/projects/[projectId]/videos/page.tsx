import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { EmptyState } from "@/components/empty-state";
import { prisma } from "@/lib/db/prisma";
import { getStorage } from "@/lib/storage/storage";
import { listVideos } from "@/lib/videos/queries";
import { listVideosQuerySchema } from "@/lib/videos/videos.validation";

export default async function VideosPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { actor } = await requirePageProjectAccess(projectId);
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]).filter(([, v]) => v));
  const parsed = listVideosQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : listVideosQuerySchema.parse({});
  const result = await listVideos({ prisma, storage: getStorage() }, actor, projectId, query);
  const [dimensions, models] = await Promise.all([
    prisma.$queryRaw<{ d: string }[]>`SELECT DISTINCT unnest(dimensions) AS d FROM video WHERE "projectId" = ${projectId} ORDER BY d`,
    prisma.video.findMany({ where: { projectId, model: { not: null } }, distinct: ["model"], select: { model: true }, orderBy: { model: "asc" } }),
  ]);
  const pages = Math.max(1, Math.ceil(result.total / result.pageSize));
  const link = (patch: Record<string, string | number | undefined>) => {
    const next = new URLSearchParams({ ...(raw as Record<string, string>) });
    for (const [k, v] of Object.entries(patch)) if (v === undefined || v === "") next.delete(k); else next.set(k, String(v));
    return `/projects/${projectId}/videos?${next.toString()}`;
  };

  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-baseline gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">Videos</h1>
        <span className="text-sm text-slate-500">{result.total} matching</span>
        <Link href={`/projects/${projectId}`} className="ml-auto text-sm text-indigo-700 underline">
          project
        </Link>
      </div>
      <form className="flex flex-wrap items-end gap-3 text-sm" method="get">
        <label className="flex flex-col gap-1">
          <span>Dimension</span>
          <select name="dimension" defaultValue={query.dimension ?? ""} className="rounded-md border border-slate-300 px-2 py-1.5">
            <option value="">any</option>
            {dimensions.map(({ d }) => (
              <option key={d}>{d}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span>Model</span>
          <select name="model" defaultValue={query.model ?? ""} className="rounded-md border border-slate-300 px-2 py-1.5">
            <option value="">any</option>
            {models.map(({ model }) => (
              <option key={model}>{model}</option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span>Status</span>
          <select name="status" defaultValue={query.status ?? ""} className="rounded-md border border-slate-300 px-2 py-1.5">
            <option value="">any</option>
            <option value="ready">ready</option>
            <option value="pending_extraction">pending extraction</option>
            <option value="failed">failed</option>
          </select>
        </label>
        <label className="flex flex-col gap-1">
          <span>Prompt contains</span>
          <input name="prompt" defaultValue={query.prompt ?? ""} className="rounded-md border border-slate-300 px-2 py-1.5" />
        </label>
        <button className="rounded-md border border-slate-300 bg-white px-3 py-1.5">Filter</button>
      </form>
      {result.videos.length === 0 ? (
        <EmptyState title="No videos match">Import videos, or loosen the filters.</EmptyState>
      ) : (
        <table className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm" data-testid="video-table">
          <thead className="text-xs uppercase text-slate-500">
            <tr>
              <th className="px-3 py-2">File</th>
              <th>Prompt</th>
              <th>Dimensions</th>
              <th>Model</th>
              <th>#</th>
              <th>Status</th>
              <th>Key frames</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {result.videos.map((video) => (
              <tr key={video.id} data-testid="video-row">
                <td className="max-w-56 truncate px-3 py-2">
                  <Link href={`/projects/${projectId}/videos/${video.id}`} className="text-indigo-700 underline">
                    {video.fileName}
                  </Link>
                </td>
                <td className="max-w-md truncate" title={video.prompt ?? ""}>
                  {video.prompt}
                </td>
                <td>{video.dimensions.join(", ")}</td>
                <td>{video.model}</td>
                <td>{video.sampleIndex}</td>
                <td>
                  <span className={video.status === "failed" ? "text-red-700" : video.status === "ready" ? "text-emerald-700" : "text-amber-700"}>
                    {video.status.replace("_", " ")}
                  </span>
                </td>
                <td>{video.keyFrameCount || ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="flex items-center gap-3 text-sm">
        {query.page > 1 && <Link href={link({ page: query.page - 1 })}>← previous</Link>}
        <span>
          page {query.page} of {pages}
        </span>
        {query.page < pages && <Link href={link({ page: query.page + 1 })}>next →</Link>}
      </div>
    </div>
  );
}
