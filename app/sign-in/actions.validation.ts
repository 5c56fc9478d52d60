import { z } from "zod";

export const signInSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, "Enter your email.").max(320),
  password: z.string().min(1, "Enter your password.").max(1024),
});

export const firstAdminSchema = z.object({
  name: z.string().trim().max(200).optional(),
  email: z.string().trim().toLowerCase(),
  password: z.string(),
});

/** The SSO button pressed: a configured provider's id (checked against the configuration in the action). */
export const ssoSignInSchema = z.object({ providerId: z.string().trim().min(1).max(40) });
