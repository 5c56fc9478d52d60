/** Who is asking: the signed-in user or the owner of an API key. */
export interface Actor {
  userId: string;
  email: string;
  name: string;
  isAdmin: boolean;
}
