import { withActor } from "@/lib/api/handler";

export const GET = withActor(async (_request, actor) => Response.json({ id: actor.userId, email: actor.email, name: actor.name, isAdmin: actor.isAdmin }));
