-- Each prompt-list entry is a row (prompt_list_entry), with the keys a video's name is matched by, and one row per
-- dimension it names ('' when none) carrying the spelling the project shows for its prompt (the earliest list's):
-- the completeness report counts and pages prompts per dimension on that table's indexes instead of reading
-- every list whole. The entries stored inside each list (prompt_list.entries) move into these tables.
-- CreateTable
CREATE TABLE "prompt_list_entry" (
    "listId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "projectId" TEXT NOT NULL,
    "prompt" TEXT NOT NULL,
    "promptKey" TEXT NOT NULL,
    "dimensions" TEXT[],
    "auxiliaryInfo" JSONB,
    "nameKeys" TEXT[],

    CONSTRAINT "prompt_list_entry_pkey" PRIMARY KEY ("listId","position")
);

-- CreateTable
CREATE TABLE "prompt_list_entry_dimension" (
    "listId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "dimension" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "promptKey" TEXT NOT NULL,
    "shownPrompt" TEXT NOT NULL,
    "first" BOOLEAN NOT NULL,

    CONSTRAINT "prompt_list_entry_dimension_pkey" PRIMARY KEY ("listId","position","dimension")
);

-- CreateIndex
CREATE INDEX "prompt_list_entry_projectId_promptKey_idx" ON "prompt_list_entry"("projectId", "promptKey");

-- CreateIndex
CREATE INDEX "prompt_list_entry_nameKeys_idx" ON "prompt_list_entry" USING GIN ("nameKeys" array_ops);

-- CreateIndex
CREATE INDEX "prompt_list_entry_dimension_projectId_promptKey_dimension_idx" ON "prompt_list_entry_dimension"("projectId", "promptKey", "dimension");

-- The report's order of a dimension's prompts (byte order of the shown spelling), one row a prompt key: its counts
-- and pages are index-only scans of this.
CREATE INDEX "prompt_list_entry_dimension_order_idx" ON "prompt_list_entry_dimension" ("projectId", "dimension", ("shownPrompt" COLLATE "C"), "promptKey") WHERE "first";

-- AddForeignKey
ALTER TABLE "prompt_list_entry" ADD CONSTRAINT "prompt_list_entry_listId_fkey" FOREIGN KEY ("listId") REFERENCES "prompt_list"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "prompt_list_entry_dimension" ADD CONSTRAINT "prompt_list_entry_dimension_listId_position_fkey" FOREIGN KEY ("listId", "position") REFERENCES "prompt_list_entry"("listId", "position") ON DELETE CASCADE ON UPDATE CASCADE;

-- The stored entries, in list order, without the empty ones: the prompt trimmed, its NFC key, its dimensions, its
-- auxiliary info, and its name keys (stored with lists saved since the keys were, computed here otherwise as
-- promptNameKeys does: trailing whitespace off and NFC, of the first 180 characters and of the whole prompt).
INSERT INTO "prompt_list_entry" ("listId", "position", "projectId", "prompt", "promptKey", "dimensions", "auxiliaryInfo", "nameKeys")
SELECT e.list, e.position, e.project, e.prompt, normalize(e.prompt, NFC),
       ARRAY(SELECT DISTINCT btrim(d) FROM jsonb_array_elements_text(e.dims) AS d WHERE btrim(d) <> ''),
       e.info,
       CASE WHEN e.names IS NOT NULL THEN ARRAY(SELECT jsonb_array_elements_text(e.names))
            ELSE ARRAY(SELECT DISTINCT normalize(regexp_replace(k, '\s+$', ''), NFC) FROM unnest(ARRAY[left(e.prompt, 180), e.prompt]) AS k) END
FROM (
  SELECT l.id AS list, l."projectId" AS project, (x.o - 1)::int AS position,
         regexp_replace(x.e->>'prompt', '^\s+|\s+$', '', 'g') AS prompt,
         CASE WHEN jsonb_typeof(x.e->'dimensions') = 'array' THEN x.e->'dimensions' ELSE '[]'::jsonb END AS dims,
         CASE WHEN jsonb_typeof(x.e->'auxiliaryInfo') = 'object' THEN x.e->'auxiliaryInfo' END AS info,
         CASE WHEN jsonb_typeof(x.e->'names') = 'array' THEN x.e->'names' END AS names
  FROM "prompt_list" l
  CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(l.entries) = 'array' THEN l.entries ELSE '[]'::jsonb END) WITH ORDINALITY AS x(e, o)
  WHERE jsonb_typeof(x.e) = 'object' AND jsonb_typeof(x.e->'prompt') = 'string'
) AS e
WHERE e.prompt <> '';

-- Each entry in each dimension it names ('' when none), shown as the project's earliest entry (by list age, then
-- position) with the same key spells it; the earliest of each dimension and key is the one counted.
INSERT INTO "prompt_list_entry_dimension" ("listId", "position", "dimension", "projectId", "promptKey", "shownPrompt", "first")
SELECT e."listId", e."position", d.dim, e."projectId", e."promptKey", first.prompt,
       row_number() OVER (PARTITION BY e."projectId", d.dim, e."promptKey" ORDER BY l."createdAt", l.id, e."position") = 1
FROM "prompt_list_entry" e
JOIN "prompt_list" l ON l.id = e."listId"
CROSS JOIN LATERAL (SELECT unnest(e."dimensions") UNION SELECT '' WHERE cardinality(e."dimensions") = 0) AS d(dim)
CROSS JOIN LATERAL (
  SELECT f."prompt" FROM "prompt_list_entry" f JOIN "prompt_list" fl ON fl.id = f."listId"
  WHERE f."projectId" = e."projectId" AND f."promptKey" = e."promptKey"
  ORDER BY fl."createdAt", fl.id, f."position" LIMIT 1
) AS first;

-- AlterTable
ALTER TABLE "prompt_list" DROP COLUMN "entries";
