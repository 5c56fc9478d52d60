import { withProject } from "@/lib/api/with-project";
import { setGold } from "@/lib/adjudication/adjudication";
import { goldInputSchema } from "@/lib/adjudication/adjudication.validation";
import { ok } from "@/lib/api/openapi/route-builders";

/** PUT /api/v1/projects/:id/gold {"targetKey","value","note"?,"expectedVersion"?} — sets a target's gold value (owners); stale version → 409. */
export const PUT = withProject(
  "gold.set",
  {
    summary: "Set the gold value of a judged target (owners)",
    description: "A stale or missing version when gold exists → 409 with `error.details.current`.",
    body: { kind: "json", schema: goldInputSchema },
    responses: [ok("The gold with its history.")],
    errors: [409],
  },
  async ({ prisma, actor, project, body }) => {
    const projectId = project.id;
    return Response.json(await setGold(prisma, actor, projectId, body));
  },
);
