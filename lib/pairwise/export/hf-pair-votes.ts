/**
 * A pair set's votes as a Hugging Face dataset, streamed as a .tar the way a run's dataset is (lib/export/hf-dataset.ts):
 * `data/votes-NNNNN.jsonl` shards of HF_SHARD_ROWS votes and a `README.md` card last (its YAML front matter gives the
 * Hub the config, the features and the row count, known once every vote is written). As in the run's dataset, people
 * are counted, never named: a reviewer is `reviewer_<n>` (numbered in the order met); judge runs, label sets' annotators
 * and the gold keep their ids.
 */
import type { Pack } from "tar-stream";
import { stringify as yamlStringify } from "yaml";
import type { PrismaClient } from "../../generated/prisma/client";
import type { ProjectAccess } from "../../authz/permissions";
import { NotFoundError } from "../../errors";
import { addTarText, tarDownload } from "../../format/tar-download";
import { votePages } from "./votes-export";
import type { VoteExportRow } from "./votes-export.types";

export const HF_SHARD_ROWS = 50_000;

/** One vote of the dataset: the pair's prompt, generators and videos, the aspect, the rater (anonymous for people). */
export type HfPairVoteRow = Omit<VoteExportRow, "updated_at" | "tstamp" | "sha256_a" | "sha256_b">;

const FEATURES: { name: keyof HfPairVoteRow; dtype: string }[] = [
  { name: "pair_key", dtype: "string" },
  { name: "prompt", dtype: "string" },
  { name: "generator_a", dtype: "string" },
  { name: "generator_b", dtype: "string" },
  { name: "video_a", dtype: "string" },
  { name: "video_b", dtype: "string" },
  { name: "aspect", dtype: "string" },
  { name: "rater", dtype: "string" },
  { name: "rater_kind", dtype: "string" },
  { name: "verdict", dtype: "string" },
  { name: "strength", dtype: "int64" },
];

/** The card: YAML front matter for the Hub, then what a row holds. */
export function hfPairVotesCard(input: {
  setName: string;
  rows: number;
  shards: number;
  raterKinds: Map<string, number>;
}) {
  const frontMatter = {
    pretty_name: `${input.setName}: pairwise votes`,
    license: "other",
    task_categories: ["video-classification"],
    configs: [{ config_name: "default", data_files: [{ split: "test", path: "data/votes-*.jsonl" }] }],
    dataset_info: {
      features: FEATURES.map(({ name, dtype }) => ({ name, dtype })),
      splits: [{ name: "test", num_examples: input.rows }],
    },
  };
  return [
    "---",
    yamlStringify(frontMatter).trimEnd(),
    "---",
    "",
    `# ${frontMatter.pretty_name}`,
    "",
    `Exported from FrameJury. One row per vote on a pair of videos (A, B) of one prompt: \`verdict\` is A, B, tie_good (both good) or tie_bad (both bad), in the pair's own A/B terms whatever side a person saw each on; \`strength\` 2 is a strong preference. ${input.rows} rows in ${input.shards} JSONL shard(s) under \`data/\`.`,
    "",
    "People are counted, never named: a reviewer is `reviewer_<n>`. Judge runs are `run:<id>`, label sets' annotators keep their names, the adjudicated verdict is `gold`.",
    "",
    "| rater kind | votes |",
    "|---|---|",
    ...[...input.raterKinds].map(([kind, count]) => `| ${kind} | ${count} |`),
    "",
    "The license is a placeholder: choose one (and check the generated videos' terms) before publishing.",
    "",
  ].join("\n");
}

async function writeVotes(prisma: PrismaClient, pairSetId: string, setName: string, pack: Pack) {
  const reviewers = new Map<string, string>();
  const raterKinds = new Map<string, number>();
  let shard: string[] = [];
  let shards = 0;
  let rows = 0;
  const flush = async () => {
    await addTarText(pack, `data/votes-${String(shards).padStart(5, "0")}.jsonl`, shard.join(""));
    shards += 1;
    shard = [];
  };
  for await (const page of votePages(prisma, pairSetId, undefined)) {
    for (const { updated_at: _at, tstamp: _t, sha256_a: _sa, sha256_b: _sb, ...vote } of page) {
      if (vote.rater_kind === "reviewer") {
        if (!reviewers.has(vote.rater)) reviewers.set(vote.rater, `reviewer_${reviewers.size + 1}`);
        vote.rater = reviewers.get(vote.rater)!;
      }
      raterKinds.set(vote.rater_kind, (raterKinds.get(vote.rater_kind) ?? 0) + 1);
      shard.push(`${JSON.stringify(vote satisfies HfPairVoteRow)}\n`);
      rows += 1;
      if (shard.length >= HF_SHARD_ROWS) await flush();
    }
  }
  if (shard.length || shards === 0) await flush();
  await addTarText(pack, "README.md", hfPairVotesCard({ setName, rows, shards, raterKinds }));
  pack.finalize();
}

/** The pair set's votes as a Hugging Face dataset (.tar), streamed; a set of another project is not found. */
export async function pairVotesHfDataset(
  prisma: PrismaClient,
  access: ProjectAccess<"export.read">,
  pairSetId: string,
): Promise<{ stream: ReadableStream<Uint8Array>; filename: string }> {
  const set = await prisma.pairSet.findFirst({
    where: { id: pairSetId, projectId: access.projectId },
    select: { id: true, name: true },
  });
  if (!set) throw new NotFoundError("No such pair set.");
  const stream = tarDownload(({ pack }) => writeVotes(prisma, set.id, set.name, pack));
  const slug = set.name.replace(/[^A-Za-z0-9._-]+/g, "_").slice(0, 80) || "pair-set";
  return { stream, filename: `${slug}-votes-hf-dataset.tar` };
}
