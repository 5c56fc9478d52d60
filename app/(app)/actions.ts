"use server";

import { redirect } from "next/navigation";
import { revalidatePath } from "next/cache";
import { formValues, runAction, type ActionResult } from "@/app/_server/action-result";
import { projectAccess } from "@/lib/authz/permissions";
import { prisma } from "@/lib/db/prisma";
import {
  addMember,
  changeMemberRole,
  createProject,
  removeMember,
  renameProject,
  setProjectArchived,
  setProjectGuidelines,
  setProjectSsoDefaultRole,
} from "@/lib/projects/projects";
import { setQueueGuidelines } from "@/lib/queues/set-queue-guidelines";
import { queueIdSchema } from "@/lib/queues/queues.validation";
import {
  addMemberSchema,
  archiveProjectSchema,
  changeRoleSchema,
  createProjectSchema,
  removeMemberSchema,
  renameProjectSchema,
  projectGuidelinesSchema,
  projectSsoDefaultRoleSchema,
  projectIdSchema,
} from "@/lib/projects/projects.validation";

export async function createProjectAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  let projectId = "";
  const result = await runAction(async (actor) => {
    const project = await createProject(prisma, actor, createProjectSchema.parse(formValues(formData)));
    projectId = project.id;
    return { ok: true };
  });
  if (result.ok) redirect(`/projects/${projectId}`);
  return result;
}

export async function renameProjectAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  return runAction(async (actor) => {
    const input = renameProjectSchema.parse(formValues(formData));
    const access = await projectAccess(prisma, actor, input.projectId, "project.rename");
    await renameProject(prisma, access, input);
    revalidatePath(`/projects/${input.projectId}`, "layout");
    return { ok: true, message: "Renamed." };
  });
}

export async function setArchivedAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  return runAction(async (actor) => {
    const values = formValues(formData);
    const input = archiveProjectSchema.parse({ projectId: values.projectId, archived: values.archived === "true" });
    const access = await projectAccess(prisma, actor, input.projectId, "project.archive");
    await setProjectArchived(prisma, access, input);
    revalidatePath(`/projects/${input.projectId}`, "layout");
    return { ok: true, message: input.archived ? "Archived." : "Restored." };
  });
}

export async function addMemberAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  return runAction(async (actor) => {
    const input = addMemberSchema.parse(formValues(formData));
    const access = await projectAccess(prisma, actor, input.projectId, "members.manage");
    await addMember(prisma, access, input);
    revalidatePath(`/projects/${input.projectId}`, "layout");
    return { ok: true, message: `${input.email} is now ${input.role}.` };
  });
}

export async function changeRoleAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  return runAction(async (actor) => {
    const input = changeRoleSchema.parse(formValues(formData));
    const access = await projectAccess(prisma, actor, input.projectId, "members.manage");
    await changeMemberRole(prisma, access, input);
    revalidatePath(`/projects/${input.projectId}`, "layout");
    return { ok: true, message: "Role changed." };
  });
}

export async function removeMemberAction(_previous: ActionResult | null, formData: FormData): Promise<ActionResult> {
  return runAction(async (actor) => {
    const input = removeMemberSchema.parse(formValues(formData));
    const access = await projectAccess(prisma, actor, input.projectId, "members.manage");
    await removeMember(prisma, access, input);
    revalidatePath(`/projects/${input.projectId}`, "layout");
    return { ok: true, message: "Removed." };
  });
}

export async function setProjectGuidelinesAction(
  _previous: ActionResult | null,
  formData: FormData,
): Promise<ActionResult> {
  return runAction(async (actor) => {
    const input = projectGuidelinesSchema.parse(formValues(formData));
    const access = await projectAccess(prisma, actor, input.projectId, "project.rename");
    await setProjectGuidelines(prisma, access, input);
    revalidatePath(`/projects/${input.projectId}`, "layout");
    return { ok: true, message: "Guidelines saved." };
  });
}

/** The role every account created by single sign-on gets in the project ("none": no access). */
export async function setSsoDefaultRoleAction(
  _previous: ActionResult | null,
  formData: FormData,
): Promise<ActionResult> {
  return runAction(async (actor) => {
    const input = projectSsoDefaultRoleSchema.parse(formValues(formData));
    const access = await projectAccess(prisma, actor, input.projectId, "members.manage");
    await setProjectSsoDefaultRole(prisma, access, input);
    revalidatePath(`/projects/${input.projectId}/settings`);
    return {
      ok: true,
      message: input.ssoDefaultRole
        ? `New single sign-on accounts join as ${input.ssoDefaultRole}.`
        : "New single sign-on accounts get no access.",
    };
  });
}

export async function setQueueGuidelinesAction(
  _previous: ActionResult | null,
  formData: FormData,
): Promise<ActionResult> {
  return runAction(async (actor) => {
    const values = formValues(formData);
    const queueId = queueIdSchema.parse(values.queueId);
    const access = await projectAccess(prisma, actor, projectIdSchema.parse(values.projectId), "queues.manage");
    const queue = await setQueueGuidelines(prisma, access, queueId, { guidelines: values.guidelines ?? "" });
    revalidatePath(`/projects/${queue.projectId}/queues/${queue.id}`);
    return { ok: true, message: "Guidelines saved." };
  });
}
