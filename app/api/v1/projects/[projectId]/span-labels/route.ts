import { z } from "zod";
import { withProject } from "@/lib/api/with-project";
import { ok } from "@/lib/api/openapi/route-builders";
import { projectSpanLabelsSchema, spanLabelsAnswerSchema } from "@/lib/spans/span-labels";
import { readProjectSpanLabels, setProjectSpanLabels } from "@/lib/spans/project-span-labels";

const spanLabelsBodySchema = z.object({ labels: projectSpanLabelsSchema }).strict();

/** The project's own span labels (task "project"). */
export const GET = withProject(
  "project.view",
  {
    summary: "The project's own span labels",
    responses: [ok("`{labels: [{id, label, definition}]}`.", spanLabelsAnswerSchema)],
  },
  async ({ prisma, access }) => Response.json({ labels: await readProjectSpanLabels(prisma, access) }),
);

/** Replaces the project's own span labels (owners); a label spans still carry stays (409). */
export const PUT = withProject(
  "project.rename",
  {
    summary: "Replace the project's own span labels (owners)",
    description:
      "`{labels: [{id, label, definition}]}`, at most 200, each id once. Removing a label that spans carry → 409 `labels_in_use` naming it.",
    body: { kind: "json", schema: spanLabelsBodySchema },
    responses: [ok("`{labels}` as saved.", spanLabelsAnswerSchema)],
    errors: [409],
  },
  async ({ prisma, access, body }) =>
    Response.json({ labels: await setProjectSpanLabels(prisma, access, body.labels) }),
);
