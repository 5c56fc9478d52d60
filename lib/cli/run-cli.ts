import { parseArgs } from "node:util";
import { z } from "zod";
import type { PrismaClient } from "../generated/prisma/client";
import { createApiKey } from "../auth/api-keys";
import { approveUser } from "../auth/sso-accounts";
import { createUser } from "../auth/users";
import { deactivateUser, deleteUser, reactivateUser, resetPassword, userIdByEmail } from "../auth/account-lifecycle";
import { createPrismaClient } from "../db/prisma";
import { resolveDatabase } from "../db/resolve-database";
import { AppError, isAppError } from "../errors";
import { projectAccess } from "../authz/permissions";
import { addMember, createProject } from "../projects/projects";
import { addMemberSchema, createProjectSchema } from "../projects/projects.validation";
import { chooseCliDatabase, describeCliDatabase, readRunningApp, RUNNING_APP_FILE } from "./running-app";

export interface CliIo {
  stdout(line: string): void;
  stderr(line: string): void;
}

const USAGE = `usage: npm run cli -- <command> [options]

  create-user     --email E --password P [--name N] [--admin]
  create-api-key  --email E [--name N]             prints the key alone on stdout
  create-project  --name N --owner E               prints the project id alone on stdout
  add-member      --project ID --email E --role owner|reviewer|viewer
  reset-password  --email E [--password P]         prints the new password alone on stdout (generated unless given); ends the user's sessions
  deactivate-user --email E                        no sign-in; ends the user's sessions and revokes their API keys; their judgments stay
  reactivate-user --email E
  approve-user    --email E                        lets an account single sign-on created (SSO_NEW_ACCOUNTS=approve) sign in
  delete-user     --email E                        only an account nothing names yet (no judgments, runs, videos…); else deactivate`;

// The CLI is the operator's tool: it acts with site-admin rights.
const CLI_ACTOR = { userId: "cli", email: "cli", name: "cli", isAdmin: true };

type Command = (prisma: PrismaClient, args: string[], io: CliIo) => Promise<void>;

const commands: Record<string, Command> = {
  "create-user": async (prisma, args, io) => {
    const { values } = parseArgs({
      args,
      options: {
        email: { type: "string" },
        password: { type: "string" },
        name: { type: "string" },
        admin: { type: "boolean" },
      },
    });
    const user = await createUser(prisma, {
      email: required(values.email, "--email"),
      password: required(values.password, "--password"),
      name: values.name,
      isAdmin: values.admin ?? false,
    });
    io.stdout(user.id);
    io.stderr(`created user ${user.email}${user.isAdmin ? " (site admin)" : ""}`);
  },
  "create-api-key": async (prisma, args, io) => {
    const { values } = parseArgs({ args, options: { email: { type: "string" }, name: { type: "string" } } });
    const user = await userByEmail(prisma, required(values.email, "--email"));
    const created = await createApiKey(prisma, user.id, values.name ?? "cli");
    io.stdout(created.key);
    io.stderr(`created API key "${created.name}" for ${user.email}; it is not shown again`);
  },
  "create-project": async (prisma, args, io) => {
    const { values } = parseArgs({ args, options: { name: { type: "string" }, owner: { type: "string" } } });
    const owner = await userByEmail(prisma, required(values.owner, "--owner"));
    const input = createProjectSchema.parse({ name: required(values.name, "--name") });
    const project = await createProject(
      prisma,
      { userId: owner.id, email: owner.email, name: owner.name, isAdmin: owner.isAdmin },
      input,
    );
    io.stdout(project.id);
    io.stderr(`created project "${project.name}" owned by ${owner.email}`);
  },
  "add-member": async (prisma, args, io) => {
    const { values } = parseArgs({
      args,
      options: { project: { type: "string" }, email: { type: "string" }, role: { type: "string" } },
    });
    const input = addMemberSchema.parse({
      projectId: required(values.project, "--project"),
      email: required(values.email, "--email"),
      role: required(values.role, "--role"),
    });
    await addMember(prisma, await projectAccess(prisma, CLI_ACTOR, input.projectId, "members.manage"), input);
    io.stderr(`${input.email} is now ${input.role} of project ${input.projectId}`);
  },
  "reset-password": async (prisma, args, io) => {
    const { values } = parseArgs({ args, options: { email: { type: "string" }, password: { type: "string" } } });
    const userId = await userIdByEmail(prisma, required(values.email, "--email"));
    const result = await resetPassword(prisma, CLI_ACTOR, userId, values.password);
    io.stdout(result.password);
    io.stderr(
      `set a new password for ${result.email} and ended their sessions${values.password ? "" : "; it is not shown again"}`,
    );
  },
  "deactivate-user": async (prisma, args, io) => {
    const { values } = parseArgs({ args, options: { email: { type: "string" } } });
    const result = await deactivateUser(
      prisma,
      CLI_ACTOR,
      await userIdByEmail(prisma, required(values.email, "--email")),
    );
    io.stderr(
      `deactivated ${result.email}: ended ${result.sessionsEnded} session(s), revoked ${result.apiKeysRevoked} API key(s)`,
    );
  },
  "reactivate-user": async (prisma, args, io) => {
    const { values } = parseArgs({ args, options: { email: { type: "string" } } });
    const result = await reactivateUser(
      prisma,
      CLI_ACTOR,
      await userIdByEmail(prisma, required(values.email, "--email")),
    );
    io.stderr(`reactivated ${result.email}; their old API keys stay revoked`);
  },
  "approve-user": async (prisma, args, io) => {
    const { values } = parseArgs({ args, options: { email: { type: "string" } } });
    const result = await approveUser(prisma, CLI_ACTOR, await userIdByEmail(prisma, required(values.email, "--email")));
    io.stderr(`approved ${result.email}; they can sign in by single sign-on now`);
  },
  "delete-user": async (prisma, args, io) => {
    const { values } = parseArgs({ args, options: { email: { type: "string" } } });
    const result = await deleteUser(prisma, CLI_ACTOR, await userIdByEmail(prisma, required(values.email, "--email")));
    io.stderr(`deleted ${result.email}`);
  },
};

class UsageError extends Error {}

function required(value: string | undefined, flag: string): string {
  if (value === undefined || value === "") throw new UsageError(`${flag} is required`);
  return value;
}

async function userByEmail(prisma: PrismaClient, email: string) {
  const user = await prisma.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (!user) throw new AppError(404, "not_found", `no user with email ${email}`);
  return user;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  /** Where the running app records its database (lib/cli/running-app.ts). */
  runningAppFile?: string;
}

/** Returns the process exit code: 0 done, 1 refused or failed, 2 usage error. */
export async function runCli(argv: string[], io: CliIo, options: CliOptions = {}): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? commands[name] : undefined;
  if (!command) {
    io.stderr(name && name !== "help" && name !== "--help" ? `unknown command: ${name}\n\n${USAGE}` : USAGE);
    return name === "help" || name === "--help" ? 0 : 2;
  }
  const choice = chooseCliDatabase(
    options.env ?? process.env,
    readRunningApp(options.runningAppFile ?? RUNNING_APP_FILE),
  );
  if (choice.kind === "refuse") {
    io.stderr(`error: ${choice.message}`);
    return 1;
  }
  let database;
  try {
    database = await resolveDatabase(undefined, { dataDir: choice.kind === "join" ? choice.dataDir : undefined });
    io.stderr(describeCliDatabase(database, choice.note));
  } catch (error) {
    io.stderr(`error: could not reach the database: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const prisma = createPrismaClient(database.url);
  try {
    await command(prisma, args, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      io.stderr(`error: ${(error as Error).message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof z.ZodError) {
      io.stderr(`error: ${error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`);
      return 2;
    }
    if (isAppError(error)) {
      io.stderr(`error: ${error.message}`);
      return 1;
    }
    io.stderr(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  } finally {
    await prisma.$disconnect();
    await database.stop();
  }
}
