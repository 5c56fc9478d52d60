import { withProject } from "@/lib/api/with-project";
import { appDeps } from "@/lib/videos/app-deps";
import { projectCompleteness } from "@/lib/videos/prompt-list-store";

export const GET = withProject<{ projectId: string }>("project.view", async ({ actor, project }) => Response.json(await projectCompleteness(appDeps(), actor, project.id)));
