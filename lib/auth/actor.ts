import { NotFoundError } from "../errors";

/** Who is asking: the signed-in user or the owner of an API key. */
export interface Actor {
  userId: string;
  email: string;
  name: string;
  isAdmin: boolean;
}

/**
 * Refuses anyone but a site admin, as if the page or action did not exist (404): the one check made on the actor
 * alone, so sign-in's own operations (users, accounts, single sign-on) make it without reading project permissions.
 */
export function requireSiteAdmin(actor: Actor): void {
  if (!actor.isAdmin) throw new NotFoundError();
}
