import { ProjectPageHeader } from "@/components/project-page-header";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card } from "@/components/empty-state";
import { EndpointForm } from "@/components/judge/endpoint-form";
import { EndpointList } from "@/components/judge/endpoint-list";
import { JudgePanel } from "@/components/judge/judge-panel";
import { roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { HallucinationSettingsForm } from "@/components/tasks/hallucination/settings-form";
import { ensureEnvDefaultEndpoint, listEndpoints } from "@/lib/judge/endpoints";
import { hallucinationSummarySettingsSchema } from "@/lib/tasks/hallucination/scores";
import { projectPipelineDefaults } from "@/lib/judge/runs";
import { captionContentSettingsSchema } from "@/lib/tasks/captions/caption-content";
import { captionStyleSettingsSchema } from "@/lib/tasks/captions/caption-style";
import { qaSettingsSchema } from "@/lib/tasks/qa/qa-pipeline";
import { browseOptions } from "@/lib/videos/browse-videos";

export default async function JudgePage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const { actor, role } = await requirePageProjectAccess(projectId);
  const canManage = roleCan(role, "runs.manage");
  if (roleCan(role, "endpoints.manage")) await ensureEnvDefaultEndpoint(prisma, actor, projectId);
  // Archived endpoints are listed here (restorable), but not offered to new runs.
  const endpoints = await listEndpoints(prisma, actor, projectId, { includeArchived: true });
  const endpointRows = endpoints.map(({ id, name, baseUrl, model, hasApiKey, imageDetail, temperature, maxConcurrency, requestsPerMinute, timeoutSeconds, structuredOutput, pricePer1kInput, pricePer1kOutput, supportsBatchApi, archivedAt }) => ({
    id, name, baseUrl, model, hasApiKey, imageDetail, temperature, maxConcurrency, requestsPerMinute, timeoutSeconds, structuredOutput, pricePer1kInput, pricePer1kOutput, supportsBatchApi,
    archivedAt: archivedAt?.toISOString() ?? null,
  }));
  const [saved, { dimensions }] = await Promise.all([projectPipelineDefaults(prisma, actor, projectId), browseOptions(prisma, actor, projectId)]);
  const hallucinationDefaults = hallucinationSummarySettingsSchema.parse(saved.hallucination ?? {});
  // The caption form starts from the project's defaults for new runs; a stored default that no longer parses is ignored.
  const captionDefaults = {
    caption_style: captionStyleSettingsSchema.safeParse(saved.caption_style ?? {}).data ?? captionStyleSettingsSchema.parse({}),
    caption_content: captionContentSettingsSchema.safeParse(saved.caption_content ?? {}).data ?? captionContentSettingsSchema.parse({}),
  };
  const qaDefaults = qaSettingsSchema.safeParse(saved.qa ?? {}).data ?? qaSettingsSchema.parse({});
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Judge runs" />
      <div className="grid gap-5 lg:grid-cols-[1fr_24rem]">
        <JudgePanel projectId={projectId} canManage={canManage} dimensions={dimensions} captionDefaults={captionDefaults} qaDefaults={qaDefaults} />
        <div className="flex flex-col gap-5">
          <Card title={`Endpoints (${endpoints.filter((e) => !e.archivedAt).length})`}>
            <EndpointList projectId={projectId} endpoints={endpointRows} canManage={roleCan(role, "endpoints.manage")} />
            {roleCan(role, "endpoints.manage") ? <EndpointForm projectId={projectId} /> : <p className="text-xs text-slate-500">Owners manage endpoints.</p>}
          </Card>
          {canManage && (
            <Card title="Hallucination scores">
              <HallucinationSettingsForm projectId={projectId} initial={hallucinationDefaults} />
            </Card>
          )}
        </div>
      </div>
    </div>
  );
}
