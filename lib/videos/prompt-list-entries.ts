import type { Prisma, PrismaClient } from "../generated/prisma/client";
import { promptNameKeys, type PromptEntry } from "../import/prompt-lists";

type Tx = Prisma.TransactionClient;

/**
 * Saving and deleting a project's lists take turns: a new entry shows the spelling of the project's earliest entry
 * with its key, and deleting a list re-spells the keys it showed, both read from the other lists' rows.
 */
export async function lockProjectPromptLists(tx: Tx, projectId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`prompt_list:${projectId}`}))`;
}

/**
 * Writes a list's entries as rows (prompt_list_entry), with the keys a video's name is matched by, and each entry
 * once per dimension it names ('' when none) with the project's spelling of its prompt, the earliest row of each
 * dimension and prompt key marked \`first\` (prompt_list_entry_dimension):
 * one statement, in the caller's transaction. Entries whose prompt is empty once trimmed are left out, as the prompt
 * index leaves them out.
 */
export async function insertListEntries(
  tx: Tx,
  projectId: string,
  listId: string,
  entries: readonly PromptEntry[],
): Promise<void> {
  const rows = entries.flatMap((entry, position) => {
    const prompt = entry.prompt.trim();
    if (prompt === "") return [];
    return [
      {
        position,
        prompt,
        promptKey: prompt.normalize("NFC"),
        dimensions: [...new Set(entry.dimensions)],
        auxiliaryInfo: entry.auxiliaryInfo ?? null,
        nameKeys: promptNameKeys(prompt),
      },
    ];
  });
  if (rows.length === 0) return;
  await tx.$executeRaw`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        AS x(position int, prompt text, "promptKey" text, dimensions text[], "auxiliaryInfo" jsonb, "nameKeys" text[])
    ),
    inserted AS (
      INSERT INTO prompt_list_entry ("listId", position, "projectId", prompt, "promptKey", dimensions, "auxiliaryInfo", "nameKeys")
      SELECT ${listId}, position, ${projectId}, prompt, "promptKey", dimensions, nullif("auxiliaryInfo", 'null'::jsonb), "nameKeys" FROM input
      RETURNING "listId", position, prompt, "promptKey", dimensions
    )
    INSERT INTO prompt_list_entry_dimension ("listId", position, dimension, "projectId", "promptKey", "shownPrompt", first)
    SELECT i."listId", i.position, d.dim, ${projectId}, i."promptKey",
           coalesce(
             (SELECT s."shownPrompt" FROM prompt_list_entry_dimension s WHERE s."projectId" = ${projectId} AND s."promptKey" = i."promptKey" LIMIT 1),
             first_value(i.prompt) OVER (PARTITION BY i."promptKey" ORDER BY i.position)),
           NOT EXISTS (SELECT 1 FROM prompt_list_entry_dimension s WHERE s."projectId" = ${projectId} AND s."promptKey" = i."promptKey" AND s.dimension = d.dim)
             AND row_number() OVER (PARTITION BY d.dim, i."promptKey" ORDER BY i.position) = 1
    FROM inserted i CROSS JOIN LATERAL (SELECT unnest(i.dimensions) UNION SELECT '' WHERE cardinality(i.dimensions) = 0) AS d(dim)`;
}

/**
 * Before a list's rows go: the keys it showed take the spelling of their earliest entry in the project's other lists,
 * and where one of its rows was a dimension's `first`, the earliest other row of that dimension and key is.
 * In the caller's transaction, after `lockProjectPromptLists`.
 */
export async function respellWithoutList(tx: Tx, projectId: string, listId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE prompt_list_entry_dimension d SET first = true
    FROM (
      SELECT DISTINCT ON (x.dimension, x."promptKey") x."listId", x.position, x.dimension
      FROM prompt_list_entry_dimension x JOIN prompt_list l ON l.id = x."listId"
      WHERE x."projectId" = ${projectId} AND x."listId" <> ${listId}
        AND (x.dimension, x."promptKey") IN (SELECT g.dimension, g."promptKey" FROM prompt_list_entry_dimension g WHERE g."listId" = ${listId} AND g."projectId" = ${projectId} AND g.first)
      ORDER BY x.dimension, x."promptKey", l."createdAt", l.id, x.position
    ) AS f
    WHERE d."listId" = f."listId" AND d.position = f.position AND d.dimension = f.dimension`;
  await tx.$executeRaw`
    UPDATE prompt_list_entry_dimension d SET "shownPrompt" = f.prompt
    FROM (
      SELECT DISTINCT ON (e."promptKey") e."promptKey", e.prompt
      FROM prompt_list_entry e JOIN prompt_list l ON l.id = e."listId"
      WHERE e."projectId" = ${projectId} AND e."listId" <> ${listId}
        AND e."promptKey" IN (SELECT g."promptKey" FROM prompt_list_entry g WHERE g."listId" = ${listId} AND g."projectId" = ${projectId})
      ORDER BY e."promptKey", l."createdAt", l.id, e.position
    ) AS f
    WHERE d."projectId" = ${projectId} AND d."promptKey" = f."promptKey" AND d."listId" <> ${listId} AND d."shownPrompt" <> f.prompt`;
}

/** Every entry of the project's lists, lists by age and each in its order: what the prompt index is built from. */
export async function projectPromptEntries(prisma: PrismaClient, projectId: string): Promise<PromptEntry[]> {
  const rows = await prisma.$queryRaw<
    { prompt: string; dimensions: string[]; auxiliaryInfo: Record<string, unknown> | null }[]
  >`
    SELECT e.prompt, e.dimensions, e."auxiliaryInfo"
    FROM prompt_list_entry e JOIN prompt_list l ON l.id = e."listId"
    WHERE e."projectId" = ${projectId}
    ORDER BY l."createdAt", l.id, e.position`;
  return rows.map(({ prompt, dimensions, auxiliaryInfo }) => ({
    prompt,
    dimensions,
    ...(auxiliaryInfo ? { auxiliaryInfo } : {}),
  }));
}
