import { ProjectPageHeader } from "@/components/project-page-header";
import { requirePageProjectAccess } from "@/app/_server/actor";
import { Card } from "@/components/empty-state";
import { EndpointForm } from "@/components/judge/endpoint-form";
import { EndpointList } from "@/components/judge/endpoint-list";
import { ReuseEndpointPicker } from "@/components/judge/reuse-endpoint-picker";
import { JudgeLayout } from "@/components/judge/judge-layout";
import { accessFor, roleCan } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import { ensureEnvDefaultEndpoint, listEndpoints } from "@/lib/judge/endpoints/endpoints";
import { listReusableEndpoints } from "@/lib/judge/endpoints/endpoint-reuse";
import { capabilitiesOf } from "@/lib/judge/endpoints/endpoint-capabilities";
import { projectPipelineDefaults } from "@/lib/judge/runs/pipeline-defaults";
import { runFormPipelines } from "@/lib/judge/runs/run-form";
import { defaultsFormOf } from "@/components/tasks/judge-forms";
import { browseOptions } from "@/lib/videos/browse-videos";

export default async function JudgePage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  const { role, catalogue, access } = await requirePageProjectAccess(projectId);
  const canManage = roleCan(role, "runs.manage");
  const canManageEndpoints = roleCan(role, "endpoints.manage");
  const manageEndpoints = canManageEndpoints ? accessFor(access, "endpoints.manage") : null;
  if (manageEndpoints) await ensureEnvDefaultEndpoint(prisma, manageEndpoints);
  // The endpoints of the owner's other projects, to copy here without typing a key again.
  const reusable = manageEndpoints ? await listReusableEndpoints(prisma, manageEndpoints) : [];
  // Archived endpoints are listed here (restorable), but not offered to new runs.
  const endpoints = await listEndpoints(prisma, access, { includeArchived: true });
  const endpointRows = endpoints.map(endpointRowOf);
  const [saved, { dimensions }] = await Promise.all([
    projectPipelineDefaults(prisma, access),
    browseOptions(prisma, access),
  ]);
  // The run form starts from the project's defaults for new runs; a stored default that no longer parses is ignored.
  const pipelines = runFormPipelines(catalogue, saved);
  const defaultsCards = pipelines.flatMap((pipeline) => {
    const card = defaultsFormOf(pipeline.id);
    return card ? [{ pipeline, ...card }] : [];
  });
  return (
    <div className="flex flex-col gap-5">
      <ProjectPageHeader projectId={projectId} title="Judge runs" />
      <JudgeLayout
        projectId={projectId}
        canManage={canManage}
        dimensions={dimensions}
        pipelines={pipelines}
        endpointsCard={
          <Card title={`Endpoints (${endpoints.filter((e) => !e.archivedAt).length})`}>
            <EndpointList projectId={projectId} endpoints={endpointRows} canManage={canManageEndpoints} />
            {canManageEndpoints && <ReuseEndpointPicker projectId={projectId} endpoints={reusable} />}
            {canManageEndpoints ? (
              <EndpointForm projectId={projectId} />
            ) : (
              <p className="text-xs text-slate-500">Owners manage endpoints.</p>
            )}
          </Card>
        }
        // Each pipeline's defaults card; the layout shows the one of the pipeline chosen in the run form.
        defaultsCards={
          canManage
            ? defaultsCards.map(({ pipeline, title, Form }) => ({
                pipelineId: pipeline.id,
                card: (
                  <Card title={title}>
                    <Form projectId={projectId} initial={pipeline.defaults} />
                  </Card>
                ),
              }))
            : []
        }
      />
    </div>
  );
}

type Endpoint = Awaited<ReturnType<typeof listEndpoints>>[number];

/** What the endpoint list shows of an endpoint (never its key: only whether it has one), dates as ISO strings. */
function endpointRowOf({
  id,
  name,
  baseUrl,
  model,
  hasApiKey,
  imageDetail,
  temperature,
  maxConcurrency,
  requestsPerMinute,
  timeoutSeconds,
  structuredOutput,
  pricePer1kInput,
  pricePer1kOutput,
  supportsBatchApi,
  maxTokens,
  apiVersion,
  sendImageDetail,
  capabilities,
  probedAt,
  requestLogprobs,
  topLogprobs,
  inputMode,
  archivedAt,
}: Endpoint) {
  return {
    id,
    name,
    baseUrl,
    model,
    hasApiKey,
    imageDetail,
    temperature,
    maxConcurrency,
    requestsPerMinute,
    timeoutSeconds,
    structuredOutput,
    pricePer1kInput,
    pricePer1kOutput,
    supportsBatchApi,
    maxTokens,
    apiVersion,
    sendImageDetail,
    capabilities: capabilitiesOf(capabilities),
    probedAt: probedAt?.toISOString() ?? null,
    requestLogprobs,
    topLogprobs,
    inputMode,
    archivedAt: archivedAt?.toISOString() ?? null,
  };
}
