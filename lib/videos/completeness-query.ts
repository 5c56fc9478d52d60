import { Prisma, type PrismaClient } from "../generated/prisma/client";
import {
  sumByGenerator,
  type CompletenessReport,
  type DimensionCompleteness,
  type GeneratorCompleteness,
  type MissingSample,
  type UnexpectedReason,
  type UnexpectedVideo,
  type UnmatchedVideo,
} from "../import/completeness";
import {
  DEFAULT_SAMPLES_PER_PROMPT,
  DIVERSITY_SAMPLES_PER_PROMPT,
  VBENCH_DIMENSIONS,
} from "../import/vbench-dimensions";

export interface CompletenessPage<T> {
  page: number;
  pageSize: number;
  /** How many the whole list holds. */
  total: number;
  items: T[];
}

/** The completeness report with counts per dimension and each list one page long (lists in dimension order, then by prompt or path). */
export interface PagedCompletenessReport {
  dimensions: (Omit<DimensionCompleteness, "missing" | "unexpected" | "unmatched"> & {
    missing: number;
    unexpected: number;
    unmatched: number;
  })[];
  generators: GeneratorCompleteness[];
  totals: CompletenessReport["totals"];
  missing: CompletenessPage<MissingSample>;
  unexpected: CompletenessPage<UnexpectedVideo>;
  unmatched: CompletenessPage<UnmatchedVideo>;
}

/** Trailing whitespace off, then NFC: `normalizePromptKey` (lib/import/prompt-lists.ts) in SQL. */
const key = (text: Prisma.Sql) => Prisma.sql`normalize(regexp_replace(${text}, '\\s+$', ''), NFC)`;
/** `dimensionKey` (lib/import/vbench-dimensions.ts) in SQL: NFC, lower case, no spaces, `-` or `_`. */
const dimensionKey = (text: Prisma.Sql) =>
  Prisma.sql`lower(regexp_replace(normalize(btrim(${text}), NFC), '[[:space:]_-]+', '', 'g'))`;
const samples = (dim: Prisma.Sql) =>
  Prisma.sql`(CASE WHEN ${dim} = 'Diversity' THEN ${DIVERSITY_SAMPLES_PER_PROMPT}::int ELSE ${DEFAULT_SAMPLES_PER_PROMPT}::int END)`;

/**
 * The project's videos, each resolved to the one prompt key whose name keys hold its normalised prompt (an index
 * lookup a video), then per dimension the counted samples (the first file by path per sample), the unexpected files
 * and the videos no prompt names. `''` stands for "no dimension"; a prompt is in `''` when no entry of it names one.
 */
function videoCtes(projectId: string, model: string | undefined) {
  const onlyModel = model === undefined ? Prisma.empty : Prisma.sql`AND coalesce(v.model, '') = ${model}`;
  const inDimension = (pkey: Prisma.Sql, dim: Prisma.Sql) => Prisma.sql`(CASE WHEN ${dim} = '' THEN NOT EXISTS (
      SELECT 1 FROM prompt_list_entry_dimension x WHERE x."projectId" = ${projectId} AND x."promptKey" = ${pkey} AND x.dimension <> '')
    ELSE EXISTS (SELECT 1 FROM prompt_list_entry_dimension x WHERE x."projectId" = ${projectId} AND x."promptKey" = ${pkey} AND x.dimension = ${dim}) END)`;
  return Prisma.sql`
    video_key AS (
      SELECT v.id, v."relativePath" AS path, v."sampleIndex" AS sample, v.dimensions, coalesce(v.model, '') AS gen, m.pkey
      FROM video v LEFT JOIN LATERAL (
        SELECT CASE WHEN count(DISTINCT e."promptKey") = 1 THEN min(e."promptKey") END AS pkey
        FROM prompt_list_entry e WHERE e."projectId" = ${projectId} AND e."nameKeys" @> ARRAY[${key(Prisma.sql`v.prompt`)}]
      ) AS m ON true
      WHERE v."projectId" = ${projectId} ${onlyModel}
    ),
    -- A video's dimensions as canonicalDimension spells them: VBench's names whatever their case, - _ or spaces.
    canon AS (SELECT ${dimensionKey(Prisma.sql`x`)} AS k, x AS name FROM unnest(${[...VBENCH_DIMENSIONS]}::text[]) AS x),
    -- Each video's dimensions computed beside it (a lateral subquery), not joined back by id: a filter on the model
    -- can make the planner expect one video, and a join back would then rescan every video for each.
    video_dim AS (
      SELECT vk.id, vk.path, vk.sample, vk.gen, vk.pkey, d.dim, ${samples(Prisma.sql`d.dim`)} AS spp,
             coalesce((SELECT max(${samples(Prisma.sql`y`)}) FROM unnest(vd.dims) AS y), ${DEFAULT_SAMPLES_PER_PROMPT}::int) AS largest
      FROM video_key vk
      CROSS JOIN LATERAL (
        SELECT array_agg(DISTINCT coalesce(c.name, btrim(x))) FILTER (WHERE x IS NOT NULL) AS dims
        FROM unnest(vk.dimensions) AS x LEFT JOIN canon c ON c.k = ${dimensionKey(Prisma.sql`x`)}
      ) AS vd
      CROSS JOIN LATERAL (SELECT unnest(vd.dims) AS dim UNION SELECT '' WHERE vd.dims IS NULL) AS d
    ),
    classified AS (
      SELECT vd.*, CASE
          WHEN NOT ${inDimension(Prisma.sql`vd.pkey`, Prisma.sql`vd.dim`)} THEN 'prompt_not_in_dimension'
          WHEN vd.sample IS NULL THEN 'no_sample_index'
          WHEN vd.sample >= vd.spp AND vd.sample >= vd.largest THEN 'index_out_of_range'
          WHEN vd.sample >= vd.spp THEN 'elsewhere'
          ELSE 'counted' END AS state
      FROM video_dim vd WHERE vd.pkey IS NOT NULL
    ),
    ranked AS (
      SELECT c.*, first_value(c.path) OVER w AS first_path, row_number() OVER w AS rank
      FROM classified c WHERE c.state = 'counted'
      WINDOW w AS (PARTITION BY c.gen, c.dim, c.pkey, c.sample ORDER BY c.path COLLATE "C")
    ),
    present AS (SELECT gen, dim, pkey, sample FROM ranked WHERE rank = 1)`;
}

/** A dimension's prompts, one row a prompt key (its `first`), in the report's order (the shown spelling's byte order): an index scan. */
function dimensionPrompts(projectId: string, dim: string) {
  const noneNamed =
    dim === ""
      ? Prisma.sql`AND NOT EXISTS (SELECT 1 FROM prompt_list_entry_dimension x WHERE x."projectId" = ${projectId} AND x."promptKey" = pd."promptKey" AND x.dimension <> '')`
      : Prisma.empty;
  return Prisma.sql`SELECT pd."shownPrompt" COLLATE "C" AS prompt, pd."promptKey" AS pkey
    FROM prompt_list_entry_dimension pd WHERE pd."projectId" = ${projectId} AND pd.dimension = ${dim} AND pd.first ${noneNamed}`;
}

/**
 * The same report as `completenessReport` (testkit/import/completeness-report.ts, the reference its test compares with), computed
 * in PostgreSQL from the entry rows (prompt-list-entries.ts) in one snapshot: a statement for the counts and the
 * unexpected and unmatched pages, and for each generator of each dimension the missing page reaches, one for the
 * prompts it holds some samples of and one for those it holds none of, each starting at the first prompt the page
 * can begin in instead of listing every sample before it.
 */
export async function completenessFromDatabase(
  prisma: PrismaClient,
  projectId: string,
  { page, pageSize, model }: { page: number; pageSize: number; model?: string },
): Promise<PagedCompletenessReport> {
  const offset = (page - 1) * pageSize;
  return prisma.$transaction(
    async (tx) => {
      const rows = await tx.$queryRaw<
        {
          dimensions: RawDimension[];
          gens: string[];
          totals: RawTotals;
          unexpected: RawUnexpected[] | null;
          unmatched: RawUnmatched[] | null;
        }[]
      >`
    WITH ${videoCtes(projectId, model)},
    unexpected AS (
      SELECT gen, dim, path, pkey, sample, state AS reason, NULL::text AS duplicate_of FROM classified WHERE state IN ('prompt_not_in_dimension', 'no_sample_index', 'index_out_of_range')
      UNION ALL
      SELECT gen, dim, path, pkey, sample, 'duplicate_sample', first_path FROM ranked WHERE rank > 1
    ),
    -- Every generator is expected to hold every sample; with no videos, "no generator" ('') is, so the expected show.
    gens AS (SELECT DISTINCT gen FROM video_key UNION SELECT ${model ?? ""} WHERE NOT EXISTS (SELECT 1 FROM video_key)),
    present_counts AS (SELECT dim, gen, count(*) AS n, count(DISTINCT pkey) AS held FROM present GROUP BY dim, gen),
    unexpected_counts AS (SELECT dim, gen, count(*) AS n FROM unexpected GROUP BY dim, gen),
    prompt_counts AS (
      SELECT pd.dimension AS dim, count(*) AS prompts FROM prompt_list_entry_dimension pd WHERE pd."projectId" = ${projectId} AND pd.first AND pd.dimension <> '' GROUP BY pd.dimension
      UNION ALL
      SELECT '', count(*) FROM (${dimensionPrompts(projectId, "")}) AS unnamed HAVING count(*) > 0
    ),
    dims AS (SELECT dim FROM prompt_counts UNION SELECT dim FROM video_dim),
    per_dim AS (
      SELECT d.dim, ${samples(Prisma.sql`d.dim`)} AS spp,
             coalesce((SELECT pc.prompts FROM prompt_counts pc WHERE pc.dim = d.dim), 0) AS prompts,
             (SELECT jsonb_agg(jsonb_build_object('gen', g.gen,
                 'present', coalesce((SELECT pc.n FROM present_counts pc WHERE pc.dim = d.dim AND pc.gen = g.gen), 0),
                 'held', coalesce((SELECT pc.held FROM present_counts pc WHERE pc.dim = d.dim AND pc.gen = g.gen), 0),
                 'unexpected', coalesce((SELECT uc.n FROM unexpected_counts uc WHERE uc.dim = d.dim AND uc.gen = g.gen), 0))
               ORDER BY g.gen = '', g.gen COLLATE "C") FROM gens g) AS gens,
             (SELECT count(*) FROM unexpected u WHERE u.dim = d.dim) AS unexpected,
             (SELECT count(*) FROM video_dim vd WHERE vd.dim = d.dim AND vd.pkey IS NULL) AS unmatched
      FROM dims d
    ),
    unexpected_page AS (
      SELECT u.dim, u.gen, u.path, s.prompt, u.sample, u.reason, u.duplicate_of FROM unexpected u
      CROSS JOIN LATERAL (SELECT x."shownPrompt" AS prompt FROM prompt_list_entry_dimension x WHERE x."projectId" = ${projectId} AND x."promptKey" = u.pkey LIMIT 1) AS s
      ORDER BY u.dim = '', u.dim COLLATE "C", u.path COLLATE "C"
      LIMIT ${pageSize} OFFSET ${offset}
    ),
    unmatched_page AS (
      SELECT vk.path, vk.dimensions FROM video_key vk WHERE vk.pkey IS NULL ORDER BY vk.path COLLATE "C" LIMIT ${pageSize} OFFSET ${offset}
    )
    SELECT
      (SELECT coalesce(jsonb_agg(jsonb_build_object('dim', dim, 'spp', spp, 'prompts', prompts, 'gens', gens, 'unexpected', unexpected, 'unmatched', unmatched)
         ORDER BY dim = '', dim COLLATE "C"), '[]'::jsonb) FROM per_dim) AS dimensions,
      (SELECT jsonb_agg(gen ORDER BY gen = '', gen COLLATE "C") FROM gens) AS gens,
      jsonb_build_object(
        'videos', (SELECT count(*) FROM video_key),
        'unmatched', (SELECT count(*) FROM video_key WHERE pkey IS NULL),
        'unexpected', (SELECT count(*) FROM unexpected)) AS totals,
      (SELECT jsonb_agg(jsonb_build_object('dim', dim, 'gen', gen, 'path', path, 'prompt', prompt, 'sample', sample, 'reason', reason, 'duplicateOf', duplicate_of)) FROM unexpected_page) AS unexpected,
      (SELECT jsonb_agg(jsonb_build_object('path', path, 'dimensions', dimensions)) FROM unmatched_page) AS unmatched`;
      const row = rows[0]!;
      const missing: RawMissing[] = [];
      let before = 0;
      // Missing samples by dimension, then generator, then the prompts the generator holds some samples of before
      // those it holds none of: each part walked only where the page reaches.
      walk: for (const d of row.dimensions) {
        for (const g of d.gens) {
          const parts = [
            { count: g.held * d.spp - g.present, read: missingOfHeldPrompts },
            { count: (d.prompts - g.held) * d.spp, read: missingOfUnheldPrompts },
          ];
          for (const part of parts) {
            const from = Math.max(0, offset - before);
            const take = Math.min(part.count - from, pageSize - missing.length);
            before += part.count;
            if (take > 0) missing.push(...(await part.read(tx, projectId, d, g, from, take)));
            if (missing.length === pageSize) break walk;
          }
        }
      }
      return reportOf({ ...row, missing }, { page, pageSize });
    },
    // Every statement reads the same snapshot, so the page agrees with the counts.
    { isolationLevel: "RepeatableRead" },
  );
}

/** The shown spelling of a prompt key in a dimension (its `first` row's), in the report's byte order. */
const shownPrompt = (projectId: string, dim: string, pkey: Prisma.Sql) =>
  Prisma.sql`(SELECT x."shownPrompt" COLLATE "C" FROM prompt_list_entry_dimension x WHERE x."projectId" = ${projectId} AND x."promptKey" = ${pkey} AND x.dimension = ${dim} AND x.first LIMIT 1)`;

/**
 * `take` missing samples, from the `from`-th on, of the dimension's prompts that the generator holds some samples
 * of (at most as many prompts as it holds samples). Each such prompt's missing count is known from its present
 * ones, so a running sum finds the prompt the `from`-th is in, and only the prompts that hold the page are listed
 * sample by sample.
 */
async function missingOfHeldPrompts(
  tx: Prisma.TransactionClient,
  projectId: string,
  d: RawDimension,
  g: RawGenerator,
  from: number,
  take: number,
): Promise<RawMissing[]> {
  // Only this generator's videos: a sample counts or not by its own generator's files alone.
  const rows = await tx.$queryRaw<{ prompt: string; sample: number }[]>`
    WITH ${videoCtes(projectId, g.gen)},
    present_here AS MATERIALIZED (SELECT pkey, sample FROM present WHERE dim = ${d.dim}),
    -- Looked up once a candidate sample: an object keyed by prompt key and sample (the sample after the last ':').
    present_set AS (SELECT coalesce(jsonb_object_agg(pkey || ':' || sample, true), '{}'::jsonb) AS keys FROM present_here),
    held AS (
      SELECT ${shownPrompt(projectId, d.dim, Prisma.sql`ph.pkey`)} AS prompt, ph.pkey, ${d.spp}::int - count(*) AS lacking
      FROM present_here ph GROUP BY ph.pkey HAVING count(*) < ${d.spp}::int
    ),
    -- Each held prompt with how many of the part's missing samples come before it.
    counted AS (SELECT h.*, (sum(h.lacking) OVER (ORDER BY h.prompt ROWS UNBOUNDED PRECEDING))::bigint - h.lacking AS before FROM held h),
    walk AS (SELECT c.prompt, c.pkey, c.before FROM counted c WHERE c.before + c.lacking > ${from} ORDER BY c.prompt LIMIT ${take})
    SELECT w.prompt, s.i AS sample
    FROM walk w CROSS JOIN LATERAL generate_series(0, ${d.spp}::int - 1) AS s(i)
    WHERE NOT ((SELECT keys FROM present_set) ? (w.pkey || ':' || s.i))
    ORDER BY w.prompt, s.i
    OFFSET (SELECT ${from}::bigint - coalesce(min(before), 0) FROM walk) LIMIT ${take}`;
  return rows.map((r) => ({ dim: d.dim, gen: g.gen, prompt: r.prompt, sample: r.sample }));
}

/**
 * `take` missing samples, from the `from`-th on, of the dimension's prompts that the generator holds no sample of:
 * every sample of each is missing, so the `from`-th is sample `from mod samples` of the k-th such prompt,
 * k = ⌊from / samples⌋. The k-th is at position k or later of the dimension's prompts: the walk starts at prompt
 * number k (an OFFSET over the dimension's index alone, testing no prompt), and from there passes over as many
 * prompts it does not hold as there are held ones before that prompt (at most the generator's held prompts), then
 * reads no more prompts than hold the page.
 */
async function missingOfUnheldPrompts(
  tx: Prisma.TransactionClient,
  projectId: string,
  d: RawDimension,
  g: RawGenerator,
  from: number,
  take: number,
): Promise<RawMissing[]> {
  const start = Math.floor(from / d.spp);
  const skip = from - start * d.spp;
  const prompts = Math.ceil((skip + take) / d.spp);
  const rows = await tx.$queryRaw<{ prompt: string; sample: number }[]>`
    WITH ${videoCtes(projectId, g.gen)},
    held AS MATERIALIZED (SELECT DISTINCT pkey FROM present WHERE dim = ${d.dim}),
    held_set AS (SELECT coalesce(jsonb_object_agg(pkey, true), '{}'::jsonb) AS keys FROM held),
    first_prompt AS (SELECT prompt FROM (${dimensionPrompts(projectId, d.dim)}) AS p ORDER BY prompt OFFSET ${start} LIMIT 1),
    held_before AS (
      SELECT count(*) AS n FROM held h WHERE ${shownPrompt(projectId, d.dim, Prisma.sql`h.pkey`)} < (SELECT prompt FROM first_prompt)
    ),
    walk AS (
      SELECT p.prompt FROM (${dimensionPrompts(projectId, d.dim)}) AS p
      WHERE p.prompt >= (SELECT prompt FROM first_prompt) AND NOT ((SELECT keys FROM held_set) ? p.pkey)
      ORDER BY p.prompt OFFSET (SELECT n FROM held_before) LIMIT ${prompts}
    )
    SELECT w.prompt, s.i AS sample
    FROM walk w CROSS JOIN LATERAL generate_series(0, ${d.spp}::int - 1) AS s(i)
    ORDER BY w.prompt, s.i
    OFFSET ${skip} LIMIT ${take}`;
  return rows.map((r) => ({ dim: d.dim, gen: g.gen, prompt: r.prompt, sample: r.sample }));
}

/** A generator's counts in one dimension; `held`: how many of the dimension's prompts it holds a sample of. */
type RawGenerator = { gen: string; present: number; held: number; unexpected: number };
type RawDimension = {
  dim: string;
  spp: number;
  prompts: number;
  gens: RawGenerator[];
  unexpected: number;
  unmatched: number;
};
type RawTotals = { videos: number; unmatched: number; unexpected: number };
type RawMissing = { dim: string; gen: string; prompt: string; sample: number };
type RawUnexpected = {
  dim: string;
  gen: string;
  path: string;
  prompt: string;
  sample: number | null;
  reason: UnexpectedReason;
  duplicateOf: string | null;
};
type RawUnmatched = { path: string; dimensions: string[] };

const dimensionOf = (dim: string) => (dim === "" ? null : dim);
const modelOf = (gen: string) => (gen === "" ? null : gen);

function reportOf(
  row: {
    dimensions: RawDimension[];
    gens: string[];
    totals: RawTotals;
    missing: RawMissing[];
    unexpected: RawUnexpected[] | null;
    unmatched: RawUnmatched[] | null;
  },
  { page, pageSize }: { page: number; pageSize: number },
): PagedCompletenessReport {
  const dimensions = row.dimensions.map((d) => {
    const each = d.prompts * d.spp;
    const byGenerator = d.gens.map((g) => ({
      model: modelOf(g.gen),
      expected: each,
      present: g.present,
      missing: each - g.present,
      unexpected: g.unexpected,
    }));
    const present = byGenerator.reduce((total, g) => total + g.present, 0);
    const expected = each * byGenerator.length;
    return {
      dimension: dimensionOf(d.dim),
      prompts: d.prompts,
      samplesPerPrompt: d.spp,
      expected,
      present,
      missing: expected - present,
      unexpected: d.unexpected,
      unmatched: d.unmatched,
      byGenerator,
    };
  });
  const generators = sumByGenerator(row.gens.map(modelOf), dimensions);
  const sum = (count: (d: (typeof dimensions)[number]) => number) =>
    dimensions.reduce((total, d) => total + count(d), 0);
  const pageOf = <T>(items: T[], total: number): CompletenessPage<T> => ({ page, pageSize, total, items });
  const totals = {
    generators: generators.length,
    videos: row.totals.videos,
    expected: sum((d) => d.expected),
    present: sum((d) => d.present),
    missing: sum((d) => d.missing),
    unexpected: row.totals.unexpected,
    unmatched: row.totals.unmatched,
  };
  return {
    dimensions,
    generators,
    totals,
    missing: pageOf(
      row.missing.map((m) => ({
        model: modelOf(m.gen),
        prompt: m.prompt,
        dimension: dimensionOf(m.dim),
        sampleIndex: m.sample,
      })),
      totals.missing,
    ),
    unexpected: pageOf(
      (row.unexpected ?? []).map((u) => ({
        relativePath: u.path,
        model: modelOf(u.gen),
        prompt: u.prompt,
        sampleIndex: u.sample,
        reason: u.reason,
        duplicateOf: u.duplicateOf,
      })),
      totals.unexpected,
    ),
    unmatched: pageOf(
      (row.unmatched ?? []).map((u) => ({ relativePath: u.path, dimensions: u.dimensions })),
      totals.unmatched,
    ),
  };
}
