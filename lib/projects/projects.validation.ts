import { z } from "zod";

export const projectIdSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "Invalid project id.");
export const projectNameSchema = z
  .string()
  .trim()
  .min(1, "Give the project a name.")
  .max(200, "At most 200 characters.");
export const projectRoleSchema = z.enum(["owner", "reviewer", "viewer"]);

/** Guidelines for reviewers, as Markdown (rendered with react-markdown, which shows raw HTML as text). */
export const guidelinesSchema = z
  .string()
  .max(20_000, "Guidelines take at most 20,000 characters.")
  .transform((text) => text.replace(/\r\n?/g, "\n").trim());

export const createProjectSchema = z.object({ name: projectNameSchema });
export const renameProjectSchema = z.object({ projectId: projectIdSchema, name: projectNameSchema });
export const archiveProjectSchema = z.object({ projectId: projectIdSchema, archived: z.boolean() });
export const addMemberSchema = z.object({
  projectId: projectIdSchema,
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: "Enter a valid email address." })),
  role: projectRoleSchema,
});
/** The body of `POST /api/v1/projects/{projectId}/members` (the project comes from the path). */
export const addMemberBodySchema = addMemberSchema.omit({ projectId: true });
export const changeRoleSchema = z.object({
  projectId: projectIdSchema,
  userId: z.string().min(1).max(64),
  role: projectRoleSchema,
});
export const removeMemberSchema = z.object({ projectId: projectIdSchema, userId: z.string().min(1).max(64) });
export const projectGuidelinesSchema = z.object({ projectId: projectIdSchema, guidelines: guidelinesSchema });

/** The role every account created by single sign-on gets in the project (lib/auth/sso-accounts.ts); null: none, no access. */
export const ssoDefaultRoleSchema = projectRoleSchema.nullable();
/** The Settings page's form: "none" or a role. */
export const projectSsoDefaultRoleSchema = z.object({
  projectId: projectIdSchema,
  ssoDefaultRole: z.preprocess((value) => (value === "none" ? null : value), ssoDefaultRoleSchema),
});

/** The body of `PATCH /api/v1/projects/{projectId}`: any of the changes. */
export const updateProjectSchema = z
  .object({
    name: projectNameSchema.optional(),
    archived: z.boolean().optional(),
    guidelines: guidelinesSchema.optional(),
    // "none" as the Settings page sends it: a client that drops null fields (the Python client) can still clear it.
    ssoDefaultRole: z.preprocess((value) => (value === "none" ? null : value), ssoDefaultRoleSchema).optional(),
  })
  .strict();
