import { Prisma, type PrismaClient } from "../generated/prisma/client";
import type { CompletenessReport, DimensionCompleteness, MissingSample, UnexpectedReason, UnexpectedVideo, UnmatchedVideo } from "../import/completeness";
import { DEFAULT_SAMPLES_PER_PROMPT, DIVERSITY_SAMPLES_PER_PROMPT, VBENCH_DIMENSIONS } from "../import/vbench-dimensions";
import { VBENCH_PROMPT_NAME_LENGTH } from "../import/prompt-lists";

export interface CompletenessPage<T> {
  page: number;
  pageSize: number;
  /** How many the whole list holds. */
  total: number;
  items: T[];
}

/** The completeness report with counts per dimension and each list one page long (lists in dimension order, then by prompt or path). */
export interface PagedCompletenessReport {
  dimensions: (Omit<DimensionCompleteness, "missing" | "unexpected" | "unmatched"> & { missing: number; unexpected: number; unmatched: number })[];
  totals: CompletenessReport["totals"];
  missing: CompletenessPage<MissingSample>;
  unexpected: CompletenessPage<UnexpectedVideo>;
  unmatched: CompletenessPage<UnmatchedVideo>;
}

/** Trailing whitespace off, then NFC: `normalizePromptKey` (lib/import/prompt-lists.ts) in SQL. */
const key = (text: Prisma.Sql) => Prisma.sql`normalize(regexp_replace(${text}, '\\s+$', ''), NFC)`;
/** `dimensionKey` (lib/import/vbench-dimensions.ts) in SQL: NFC, lower case, no spaces, `-` or `_`. */
const dimensionKey = (text: Prisma.Sql) => Prisma.sql`lower(regexp_replace(normalize(btrim(${text}), NFC), '[[:space:]_-]+', '', 'g'))`;
const samples = (dim: Prisma.Sql) => Prisma.sql`(CASE WHEN ${dim} = 'Diversity' THEN ${DIVERSITY_SAMPLES_PER_PROMPT}::int ELSE ${DEFAULT_SAMPLES_PER_PROMPT}::int END)`;

/**
 * The same report as `completenessReport` (lib/import/completeness.ts, the reference its test compares with), computed
 * in PostgreSQL in one statement: the prompt lists' entries merged by prompt (NFC, first spelling by list age), each
 * video's prompt resolved to the one list prompt whose whole text or first 180 characters it is (trailing whitespace
 * and NFC aside), then per dimension the prompts, the counted samples (the first file by path per sample), the
 * unexpected files and the videos no prompt names. `''` stands for "no dimension" inside the statement.
 */
export async function completenessFromDatabase(prisma: PrismaClient, projectId: string, { page, pageSize }: { page: number; pageSize: number }): Promise<PagedCompletenessReport> {
  const offset = (page - 1) * pageSize;
  const rows = await prisma.$transaction(async (tx) => {
    // The lists' entries are sorted and hashed whole: in memory rather than spilled to disk, for this statement only.
    await tx.$executeRaw`SET LOCAL work_mem = '64MB'`;
    return tx.$queryRaw<{ dimensions: RawDimension[]; totals: RawTotals; missing: RawMissing[] | null; unexpected: RawUnexpected[] | null; unmatched: RawUnmatched[] | null }[]>`
    WITH entry AS (
      SELECT btrim(x.e->>'prompt') AS prompt, coalesce(x.e->>'nfc', normalize(btrim(x.e->>'prompt'), NFC)) AS pkey,
             CASE WHEN jsonb_typeof(x.e->'dimensions') = 'array' THEN x.e->'dimensions' ELSE '[]'::jsonb END AS dims,
             CASE WHEN jsonb_typeof(x.e->'names') = 'array' THEN x.e->'names' END AS names,
             l."createdAt" AS created, l.id AS list, x.o
      FROM prompt_list l CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN jsonb_typeof(l.entries) = 'array' THEN l.entries ELSE '[]'::jsonb END) WITH ORDINALITY AS x(e, o)
      WHERE l."projectId" = ${projectId} AND coalesce(btrim(x.e->>'prompt'), '') <> ''
    ),
    merged AS (SELECT DISTINCT ON (pkey) pkey, prompt FROM entry ORDER BY pkey, created, list, o),
    entry_dim AS (
      SELECT DISTINCT e.pkey, btrim(d.dim) AS dim FROM entry e CROSS JOIN LATERAL jsonb_array_elements_text(e.dims) AS d(dim) WHERE btrim(d.dim) <> ''
    ),
    prompt_dim AS (
      SELECT ed.pkey, ed.dim, m.prompt FROM entry_dim ed JOIN merged m USING (pkey)
      UNION ALL
      SELECT m.pkey, '', m.prompt FROM merged m WHERE NOT EXISTS (SELECT 1 FROM entry_dim ed WHERE ed.pkey = m.pkey)
    ),
    name_key AS (
      SELECT DISTINCT e.pkey, n.k FROM entry e CROSS JOIN LATERAL jsonb_array_elements_text(e.names) AS n(k) WHERE e.names IS NOT NULL
      UNION
      -- A list stored without its keys: computed here (by code point; the stored keys also hold JavaScript's cut).
      SELECT e.pkey, ${key(Prisma.sql`left(e.prompt, ${VBENCH_PROMPT_NAME_LENGTH}::int)`)} FROM entry e WHERE e.names IS NULL
      UNION
      SELECT e.pkey, ${key(Prisma.sql`e.prompt`)} FROM entry e WHERE e.names IS NULL
    ),
    video_key AS (
      SELECT v.id, v."relativePath" AS path, v."sampleIndex" AS sample, v.dimensions,
             CASE WHEN count(DISTINCT nk.pkey) = 1 THEN min(nk.pkey) END AS pkey
      FROM video v LEFT JOIN name_key nk ON nk.k = ${key(Prisma.sql`v.prompt`)}
      WHERE v."projectId" = ${projectId}
      GROUP BY v.id
    ),
    -- A video's dimensions as canonicalDimension spells them: VBench's names whatever their case, - _ or spaces.
    canon AS (SELECT ${dimensionKey(Prisma.sql`x`)} AS k, x AS name FROM unnest(${[...VBENCH_DIMENSIONS]}::text[]) AS x),
    video_dims AS (
      SELECT vk.id, array_agg(DISTINCT coalesce(c.name, btrim(x))) FILTER (WHERE x IS NOT NULL) AS dims
      FROM video_key vk LEFT JOIN LATERAL unnest(vk.dimensions) AS x ON true LEFT JOIN canon c ON c.k = ${dimensionKey(Prisma.sql`x`)}
      GROUP BY vk.id
    ),
    video_dim AS (
      SELECT vk.id, vk.path, vk.sample, vk.pkey, d.dim, ${samples(Prisma.sql`d.dim`)} AS spp,
             coalesce((SELECT max(${samples(Prisma.sql`y`)}) FROM unnest(vd.dims) AS y), ${DEFAULT_SAMPLES_PER_PROMPT}::int) AS largest
      FROM video_key vk JOIN video_dims vd USING (id)
      CROSS JOIN LATERAL (SELECT unnest(vd.dims) AS dim UNION SELECT '' WHERE vd.dims IS NULL) AS d
    ),
    classified AS (
      SELECT vd.*, CASE
          WHEN NOT EXISTS (SELECT 1 FROM prompt_dim pd WHERE pd.pkey = vd.pkey AND pd.dim = vd.dim) THEN 'prompt_not_in_dimension'
          WHEN vd.sample IS NULL THEN 'no_sample_index'
          WHEN vd.sample >= vd.spp AND vd.sample >= vd.largest THEN 'index_out_of_range'
          WHEN vd.sample >= vd.spp THEN 'elsewhere'
          ELSE 'counted' END AS state
      FROM video_dim vd WHERE vd.pkey IS NOT NULL
    ),
    ranked AS (
      SELECT c.*, first_value(c.path) OVER w AS first_path, row_number() OVER w AS rank
      FROM classified c WHERE c.state = 'counted'
      WINDOW w AS (PARTITION BY c.dim, c.pkey, c.sample ORDER BY c.path COLLATE "C")
    ),
    unexpected AS (
      SELECT dim, path, pkey, sample, state AS reason, NULL::text AS duplicate_of FROM classified WHERE state IN ('prompt_not_in_dimension', 'no_sample_index', 'index_out_of_range')
      UNION ALL
      SELECT dim, path, pkey, sample, 'duplicate_sample', first_path FROM ranked WHERE rank > 1
    ),
    present AS (SELECT dim, pkey, sample FROM ranked WHERE rank = 1),
    dims AS (SELECT dim FROM prompt_dim UNION SELECT dim FROM video_dim),
    per_dim AS (
      SELECT d.dim, ${samples(Prisma.sql`d.dim`)} AS spp,
             (SELECT count(*) FROM prompt_dim pd WHERE pd.dim = d.dim) AS prompts,
             (SELECT count(*) FROM present p WHERE p.dim = d.dim) AS present,
             (SELECT count(*) FROM unexpected u WHERE u.dim = d.dim) AS unexpected,
             (SELECT count(*) FROM video_dim vd WHERE vd.dim = d.dim AND vd.pkey IS NULL) AS unmatched
      FROM dims d
    ),
    missing_page AS (
      SELECT pd.dim, pd.prompt, s.i AS sample
      FROM prompt_dim pd CROSS JOIN LATERAL generate_series(0, ${samples(Prisma.sql`pd.dim`)} - 1) AS s(i)
      WHERE NOT EXISTS (SELECT 1 FROM present p WHERE p.dim = pd.dim AND p.pkey = pd.pkey AND p.sample = s.i)
      ORDER BY pd.dim = '', pd.dim COLLATE "C", pd.prompt COLLATE "C", s.i
      LIMIT ${pageSize} OFFSET ${offset}
    ),
    unexpected_page AS (
      SELECT u.dim, u.path, m.prompt, u.sample, u.reason, u.duplicate_of FROM unexpected u JOIN merged m USING (pkey)
      ORDER BY u.dim = '', u.dim COLLATE "C", u.path COLLATE "C"
      LIMIT ${pageSize} OFFSET ${offset}
    ),
    unmatched_page AS (
      SELECT vk.path, vk.dimensions FROM video_key vk WHERE vk.pkey IS NULL ORDER BY vk.path COLLATE "C" LIMIT ${pageSize} OFFSET ${offset}
    )
    SELECT
      (SELECT coalesce(jsonb_agg(jsonb_build_object('dim', dim, 'spp', spp, 'prompts', prompts, 'present', present, 'unexpected', unexpected, 'unmatched', unmatched)
         ORDER BY dim = '', dim COLLATE "C"), '[]'::jsonb) FROM per_dim) AS dimensions,
      jsonb_build_object(
        'videos', (SELECT count(*) FROM video_key),
        'unmatched', (SELECT count(*) FROM video_key WHERE pkey IS NULL),
        'unexpected', (SELECT count(*) FROM unexpected)) AS totals,
      (SELECT jsonb_agg(jsonb_build_object('dim', dim, 'prompt', prompt, 'sample', sample)) FROM missing_page) AS missing,
      (SELECT jsonb_agg(jsonb_build_object('dim', dim, 'path', path, 'prompt', prompt, 'sample', sample, 'reason', reason, 'duplicateOf', duplicate_of)) FROM unexpected_page) AS unexpected,
      (SELECT jsonb_agg(jsonb_build_object('path', path, 'dimensions', dimensions)) FROM unmatched_page) AS unmatched`;
  });
  return reportOf(rows[0]!, { page, pageSize });
}

type RawDimension = { dim: string; spp: number; prompts: number; present: number; unexpected: number; unmatched: number };
type RawTotals = { videos: number; unmatched: number; unexpected: number };
type RawMissing = { dim: string; prompt: string; sample: number };
type RawUnexpected = { dim: string; path: string; prompt: string; sample: number | null; reason: UnexpectedReason; duplicateOf: string | null };
type RawUnmatched = { path: string; dimensions: string[] };

const dimensionOf = (dim: string) => (dim === "" ? null : dim);

function reportOf(
  row: { dimensions: RawDimension[]; totals: RawTotals; missing: RawMissing[] | null; unexpected: RawUnexpected[] | null; unmatched: RawUnmatched[] | null },
  { page, pageSize }: { page: number; pageSize: number },
): PagedCompletenessReport {
  const dimensions = row.dimensions.map((d) => {
    const expected = d.prompts * d.spp;
    return {
      dimension: dimensionOf(d.dim),
      prompts: d.prompts,
      samplesPerPrompt: d.spp,
      expected,
      present: d.present,
      missing: expected - d.present,
      unexpected: d.unexpected,
      unmatched: d.unmatched,
    };
  });
  const sum = (count: (d: (typeof dimensions)[number]) => number) => dimensions.reduce((total, d) => total + count(d), 0);
  const pageOf = <T>(items: T[], total: number): CompletenessPage<T> => ({ page, pageSize, total, items });
  const totals = {
    videos: row.totals.videos,
    expected: sum((d) => d.expected),
    present: sum((d) => d.present),
    missing: sum((d) => d.missing),
    unexpected: row.totals.unexpected,
    unmatched: row.totals.unmatched,
  };
  return {
    dimensions,
    totals,
    missing: pageOf(
      (row.missing ?? []).map((m) => ({ prompt: m.prompt, dimension: dimensionOf(m.dim), sampleIndex: m.sample })),
      totals.missing,
    ),
    unexpected: pageOf(
      (row.unexpected ?? []).map((u) => ({ relativePath: u.path, prompt: u.prompt, sampleIndex: u.sample, reason: u.reason, duplicateOf: u.duplicateOf })),
      totals.unexpected,
    ),
    unmatched: pageOf(
      (row.unmatched ?? []).map((u) => ({ relativePath: u.path, dimensions: u.dimensions })),
      totals.unmatched,
    ),
  };
}
