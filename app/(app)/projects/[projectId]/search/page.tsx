import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card } from "@/components/empty-state";
import { prisma } from "@/lib/db/prisma";
import { isAppErrorCode } from "@/lib/errors";
import { searchProject, SEARCH_LIMIT, type ProjectSearchResult } from "@/lib/search/project-search";
import { searchParamsObject } from "@/lib/videos/video-filter";

/** The navigation bar's search: videos (file name, prompt), judge runs (by name) and review queues of the project. */
export default async function ProjectSearchPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { access } = await requirePageProjectAccess(projectId);
  const raw = searchParamsObject(await searchParams);
  let result: ProjectSearchResult | null = null;
  let problem: string | null = null;
  if (raw.q !== undefined) {
    try {
      result = await searchProject(prisma, access, { q: raw.q });
    } catch (error) {
      if (!isAppErrorCode(error, "invalid_request")) throw error;
      problem = error.message;
    }
  }
  return (
    <div className="flex flex-col gap-5">
      <h1 className="text-2xl font-semibold tracking-tight">Search</h1>
      <form method="get" role="search" className="flex gap-2 text-sm">
        <input
          type="search"
          name="q"
          defaultValue={raw.q ?? ""}
          maxLength={200}
          aria-label="Search this project"
          className="w-96 rounded-md border border-slate-300 bg-white px-2 py-1.5"
          data-testid="search-page-input"
        />
        <button type="submit" className="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white">
          Search
        </button>
      </form>
      {problem && (
        <p role="alert" className="rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900">
          {problem}
        </p>
      )}
      {!result && !problem && (
        <p className="text-sm text-slate-600">
          Search the project&apos;s videos by file name or prompt, its judge runs by task, model, endpoint or date, and
          its review queues by name.
        </p>
      )}
      {result && (
        <div className="grid gap-6 lg:grid-cols-3" data-testid="search-results">
          <VideosCard projectId={projectId} result={result} />
          <Card title={`Judge runs (${result.runs.length}${result.truncated.includes("runs") ? "+" : ""})`}>
            {result.runs.length === 0 ? (
              <p className="text-sm text-slate-600">No run&apos;s name holds every word of “{result.query}”.</p>
            ) : (
              <ul className="flex flex-col gap-2 text-sm" data-testid="search-runs">
                {result.runs.map((r) => (
                  <li key={r.id}>
                    <Link href={`/projects/${projectId}/runs/${r.id}`} className="text-indigo-700 underline">
                      {r.name}
                    </Link>
                  </li>
                ))}
              </ul>
            )}
            <MoreNote result={result} kind="runs" />
          </Card>
          <Card title={`Review queues (${result.queues.length}${result.truncated.includes("queues") ? "+" : ""})`}>
            {result.queues.length === 0 ? (
              <p className="text-sm text-slate-600">No queue&apos;s name holds “{result.query}”.</p>
            ) : (
              <ul className="flex flex-col gap-2 text-sm" data-testid="search-queues">
                {result.queues.map((q) => (
                  <li key={q.id}>
                    <Link href={`/projects/${projectId}/queues/${q.id}`} className="text-indigo-700 underline">
                      {q.name}
                    </Link>
                    {q.archived && (
                      <span className="ml-1 rounded bg-slate-100 px-1 text-xs text-slate-700">archived</span>
                    )}
                  </li>
                ))}
              </ul>
            )}
            <MoreNote result={result} kind="queues" />
          </Card>
        </div>
      )}
    </div>
  );
}

/** The videos found, with a link to the video list filtered by the same prompt text. */
function VideosCard({ projectId, result }: { projectId: string; result: ProjectSearchResult }) {
  return (
    <Card title={`Videos (${result.videos.length}${result.truncated.includes("videos") ? "+" : ""})`}>
      {result.videos.length === 0 ? (
        <p className="text-sm text-slate-600">No video&apos;s file name or prompt holds “{result.query}”.</p>
      ) : (
        <ul className="flex flex-col gap-2 text-sm" data-testid="search-videos">
          {result.videos.map((v) => (
            <li key={v.id}>
              <Link href={`/projects/${projectId}/videos/${v.id}`} className="font-medium text-indigo-700 underline">
                {v.fileName}
              </Link>
              {v.prompt && <p className="line-clamp-2 text-xs text-slate-600">{v.prompt}</p>}
            </li>
          ))}
        </ul>
      )}
      <MoreNote result={result} kind="videos" />
      {result.videos.length > 0 && (
        <Link
          href={`/projects/${projectId}/videos?prompt=${encodeURIComponent(result.query)}`}
          className="mt-2 block text-xs text-indigo-700 underline"
        >
          the video list filtered by this prompt text
        </Link>
      )}
    </Card>
  );
}

/** Says a kind's list is cut at the search's limit. */
function MoreNote({ result, kind }: { result: ProjectSearchResult; kind: ProjectSearchResult["truncated"][number] }) {
  return result.truncated.includes(kind) ? (
    <p className="mt-2 text-xs text-slate-600">
      The first {SEARCH_LIMIT} are shown; type more of the name to narrow it.
    </p>
  ) : null;
}
