import { withProject } from "@/lib/api/with-project";
import { ok } from "@/lib/api/openapi/route-builders";
import { recordIdSchema } from "@/lib/validation/ids";
import { appDeps } from "@/lib/videos/app-deps";
import { deletePromptList } from "@/lib/videos/prompt-list-store";

/** Deletes a prompt list (owners); the videos keep what it gave them. */
export const DELETE = withProject(
  "videos.import",
  {
    summary: "Delete a prompt list (owners)",
    description:
      "Imports and the completeness report stop reading the list; the videos keep the prompts, dimensions and auxiliary info it gave them. The answer: `{deleted: <id>}`; an id that is no list of the project is a 404.",
    params: { promptListId: recordIdSchema },
    responses: [ok("What was deleted.")],
  },
  async ({ access, params }) =>
    Response.json(await deletePromptList(appDeps(), access, recordIdSchema.parse(params.promptListId))),
);
