import { ProjectPageHeader } from "@/components/project-page-header";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card, EmptyState } from "@/components/empty-state";
import { prisma } from "@/lib/db/prisma";
import { getStorage } from "@/lib/storage/storage";
import { roleCan } from "@/lib/authz/permissions";
import { DeletePromptListButton } from "@/components/import/delete-prompt-list-button";
import { completenessQuerySchema, listPromptLists, projectCompleteness } from "@/lib/videos/prompt-list-store";

/** The first samples of each list; the API (`GET …/completeness?page=`) gives the rest a page at a time. */
const SHOWN = 500;

const count = (n: number) => n.toLocaleString("en");
const generatorName = (model: string | null) => model ?? "(no generator)";

export default async function CompletenessPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { projectId } = await params;
  const { role, access } = await requirePageProjectAccess(projectId);
  const deps = { prisma, storage: getStorage() };
  // A generator picked on this page (?model= or ?noModel=true); anything else shows every generator.
  const picked = completenessQuerySchema.safeParse({
    pageSize: SHOWN,
    model: first((await searchParams).model),
    noModel: first((await searchParams).noModel),
  });
  const query = picked.success ? picked.data : completenessQuerySchema.parse({ pageSize: SHOWN });
  const [report, lists] = await Promise.all([projectCompleteness(deps, access, query), listPromptLists(deps, access)]);
  const filtered = query.model !== undefined || query.noModel === "true";
  const base = `/projects/${encodeURIComponent(projectId)}/completeness`;
  const canDelete = roleCan(role, "videos.import");
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="VBench-2.0 completeness" />
      <PromptListsSection projectId={projectId} lists={lists} canDelete={canDelete} />
      <p className="text-sm" data-testid="completeness-totals">
        {count(report.totals.present)} of {count(report.totals.expected)} expected samples present (
        {filtered
          ? generatorName(report.generators[0]?.model ?? null)
          : `${report.totals.generators} generator${report.totals.generators === 1 ? "" : "s"}`}
        ) · {count(report.totals.missing)} missing · {count(report.totals.unexpected)} unexpected ·{" "}
        {count(report.totals.unmatched)} names match no prompt
      </p>
      <p className="text-xs text-slate-500">
        Each generator (the folder above the dimension folder) is expected to hold every sample.
      </p>
      <GeneratorsNav base={base} filtered={filtered} report={report} />
      <DimensionsTable report={report} />
      <div className="grid gap-5 lg:grid-cols-3">
        <Card title={shownTitle("Missing samples", report.missing)}>
          <ul className="max-h-96 overflow-y-auto text-xs">
            {report.missing.items.map((m, i) => (
              <li key={i} className="py-0.5">
                <span className="text-slate-500">{m.dimension}</span> · {generatorName(m.model)} ·{" "}
                {m.prompt.slice(0, 120)} · #{m.sampleIndex}
              </li>
            ))}
          </ul>
        </Card>
        <Card title={shownTitle("Unexpected files", report.unexpected)}>
          <ul className="max-h-96 overflow-y-auto text-xs">
            {report.unexpected.items.map((u, i) => (
              <li key={i} className="py-0.5">
                <span className="font-mono">{u.relativePath}</span> · {generatorName(u.model)} ·{" "}
                {u.reason.replaceAll("_", " ")}
              </li>
            ))}
          </ul>
        </Card>
        <Card title={shownTitle("Names matching no prompt", report.unmatched)}>
          <ul className="max-h-96 overflow-y-auto text-xs">
            {report.unmatched.items.map((u, i) => (
              <li key={i} className="py-0.5 font-mono">
                {u.relativePath}
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </div>
  );
}

type Report = Awaited<ReturnType<typeof projectCompleteness>>;

/** The prompt lists the videos are compared against (each deletable by an owner), or how to import one. */
function PromptListsSection({
  projectId,
  lists,
  canDelete,
}: {
  projectId: string;
  lists: Awaited<ReturnType<typeof listPromptLists>>;
  canDelete: boolean;
}) {
  return lists.length === 0 ? (
    <EmptyState title="No prompt list yet">
      Import a VBench-2.0 <code>prompts/</code> folder (or any prompt list) with the videos: the report compares the
      videos against it.
    </EmptyState>
  ) : (
    <div className="flex flex-col gap-2 text-sm text-slate-600">
      <p>
        Against {lists.length} prompt list{lists.length === 1 ? "" : "s"}. 3 samples per prompt, 20 for Diversity.
      </p>
      <ul className="flex flex-col gap-1" data-testid="prompt-lists">
        {lists.map((l) => (
          <li key={l.id} className="flex flex-wrap items-center gap-2">
            <span>
              {l.name} ({l.entryCount.toLocaleString("en")} prompts)
            </span>
            {canDelete && <DeletePromptListButton projectId={projectId} promptList={l} />}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Every generator with its present and expected samples, each a link to its own report (one picked: back to all). */
function GeneratorsNav({ base, filtered, report }: { base: string; filtered: boolean; report: Report }) {
  return (
    <nav className="flex flex-wrap gap-2 text-sm" aria-label="Generator" data-testid="completeness-generators">
      <a href={base} className={filtered ? "underline" : "font-semibold"}>
        All generators
      </a>
      {(filtered ? [] : report.generators).map((g) => (
        <a
          key={g.model ?? ""}
          href={g.model === null ? `${base}?noModel=true` : `${base}?model=${encodeURIComponent(g.model)}`}
          className="underline"
        >
          {generatorName(g.model)}: {count(g.present)} of {count(g.expected)}
        </a>
      ))}
    </nav>
  );
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function shownTitle(title: string, list: { total: number; items: readonly unknown[] }): string {
  return list.total > list.items.length
    ? `${title} (the first ${list.items.length.toLocaleString("en")} of ${list.total.toLocaleString("en")})`
    : title;
}

/** Per dimension: its prompts, the samples expected, present, missing and unexpected, and each generator's count. */
function DimensionsTable({ report }: { report: Awaited<ReturnType<typeof projectCompleteness>> }) {
  return (
    <table className="w-full rounded-lg border border-slate-200 bg-white text-left text-sm">
      <thead className="text-xs uppercase text-slate-500">
        <tr>
          <th className="px-3 py-2">Dimension</th>
          <th>Prompts</th>
          <th>Expected</th>
          <th>Present</th>
          <th>Missing</th>
          <th>Unexpected</th>
          <th>Present by generator</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {report.dimensions.map((row) => (
          <tr key={row.dimension ?? "(none)"}>
            <td className="px-3 py-2">{row.dimension ?? "(no dimension)"}</td>
            <td>{row.prompts}</td>
            <td>{row.expected}</td>
            <td>{row.present}</td>
            <td className={row.missing ? "text-red-700" : ""}>{row.missing}</td>
            <td className={row.unexpected ? "text-amber-700" : ""}>{row.unexpected}</td>
            <td className="text-xs">
              {row.byGenerator.map((g) => (
                <span key={g.model ?? ""} className={`mr-2 inline-block ${g.missing ? "text-red-700" : ""}`}>
                  {generatorName(g.model)} {count(g.present)}/{count(g.expected)}
                </span>
              ))}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
