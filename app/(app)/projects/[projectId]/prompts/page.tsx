import Link from "next/link";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card } from "@/components/empty-state";
import { ProjectPageHeader } from "@/components/project-page-header";
import { LineDiffView } from "@/components/prompts/line-diff-view";
import { PromptEditor } from "@/components/prompts/prompt-editor";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { pipelineIds } from "@/lib/judge/runs/run-input.validation";
import { lineDiff } from "@/lib/prompt-versions/line-diff";
import { pipelinePromptVersions } from "@/lib/prompt-versions/prompt-versions";

type Search = { pipeline?: string; template?: string };

/** A pipeline's prompt templates: the shipped text, the project's versions with their diffs, and (owners) the editor. */
export default async function PromptsPage({
  params,
  searchParams,
}: {
  params: Promise<{ projectId: string }>;
  searchParams: Promise<Search>;
}) {
  const { projectId } = await params;
  const search = await searchParams;
  const { role, catalogue, access } = await requirePageProjectAccess(projectId);
  const ids = pipelineIds(catalogue);
  // No pipeline named (or an unknown one): the first registered.
  const pipelineId = ids.includes(search.pipeline ?? "") ? search.pipeline! : ids[0]!;
  const templates = await pipelinePromptVersions(prisma, access, catalogue.pipelines[pipelineId]!);
  const selected = templates.find((t) => t.templateId === search.template) ?? templates[0];
  const canEdit = roleCan(role, "prompts.manage");
  const link = (pipeline: string, template?: string) =>
    `/projects/${projectId}/prompts?pipeline=${pipeline}${template ? `&template=${encodeURIComponent(template)}` : ""}`;
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Prompt versions" />
      <p className="max-w-3xl text-sm text-slate-600">
        Each judge step renders a prompt template. The shipped templates (<code>prompts/</code>) are the defaults;
        owners save edited versions here, and a run is started with any version per template (Judge page or{" "}
        <code>promptVersions</code> in the API). A version is kept with the SHA-256 of its text and never changes; the
        response cache and the call inspector go by that hash.
      </p>
      <nav className="flex flex-wrap gap-2 text-sm" data-testid="prompt-pipelines">
        {ids.map((id) => (
          <Link
            key={id}
            href={link(id)}
            className={
              id === pipelineId
                ? "rounded bg-indigo-600 px-2 py-1 text-white"
                : "rounded border border-slate-300 px-2 py-1 text-indigo-700"
            }
          >
            {id}
          </Link>
        ))}
      </nav>
      <div className="grid gap-5 lg:grid-cols-[18rem_1fr]">
        <Card title="Templates">
          <ul className="flex flex-col gap-1.5 text-sm" data-testid="prompt-templates">
            {templates.map((t) => (
              <li key={t.templateId}>
                <Link
                  href={link(pipelineId, t.templateId)}
                  className={
                    t.templateId === selected?.templateId ? "font-semibold text-slate-900" : "text-indigo-700 underline"
                  }
                >
                  {t.templateId}
                </Link>
                <span className="ml-1 text-xs text-slate-500">
                  {t.versions.length} version{t.versions.length === 1 ? "" : "s"}
                </span>
              </li>
            ))}
          </ul>
        </Card>
        {selected && (
          <div className="flex flex-col gap-5">
            <Card title={`${selected.templateId} · shipped ${selected.shipped.hash.slice(0, 12)}`}>
              <p className="mb-3 text-xs text-slate-500">
                Placeholders the pipeline fills:{" "}
                {selected.shipped.inputs.length ? selected.shipped.inputs.map((n) => `{{${n}}}`).join(", ") : "none"}. A
                version must use exactly these.
              </p>
              {canEdit ? (
                <PromptEditor
                  key={selected.templateId}
                  projectId={projectId}
                  templateId={selected.templateId}
                  shippedText={selected.shipped.text}
                  startText={selected.versions[0]?.text ?? selected.shipped.text}
                />
              ) : (
                <pre
                  tabIndex={0}
                  className="max-h-96 overflow-auto whitespace-pre-wrap rounded bg-slate-50 p-2 font-mono text-xs"
                >
                  {selected.shipped.text}
                </pre>
              )}
            </Card>
            <SavedVersions projectId={projectId} template={selected} />
          </div>
        )}
      </div>
    </div>
  );
}

type TemplateVersions = Awaited<ReturnType<typeof pipelinePromptVersions>>[number];

/** The project's saved versions of one template, newest first, each with its diff from the shipped text. */
function SavedVersions({ projectId, template }: { projectId: string; template: TemplateVersions }) {
  return (
    <Card title={`Saved versions (${template.versions.length})`}>
      {template.versions.length === 0 ? (
        <p className="text-sm text-slate-500">None yet: runs render the shipped template.</p>
      ) : (
        <ul className="flex flex-col gap-3" data-testid="prompt-versions">
          {template.versions.map((v) => (
            <li key={v.id} id={`prompt-version-${v.id}`} data-testid="prompt-version">
              <details>
                <summary className="cursor-pointer text-sm">
                  <code data-testid="prompt-version-hash">{v.hash.slice(0, 12)}</code> · {v.createdAt.toLocaleString()}
                  {v.note ? ` · ${v.note}` : ""}
                  {v.alignmentId && (
                    <>
                      {" · "}
                      <Link
                        className="text-indigo-700 underline"
                        href={`/projects/${projectId}/alignment?id=${v.alignmentId}`}
                        data-testid="prompt-version-alignment"
                      >
                        chosen by an alignment
                      </Link>
                    </>
                  )}
                </summary>
                <div className="mt-2">
                  <LineDiffView diff={lineDiff(template.shipped.text, v.text)} testId="prompt-version-diff" />
                </div>
              </details>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
