/**
 * The pairwise import's dry run over a million generated CSV votes (issue 66: "1,000,000 rows"): rows a second and
 * the peak growth of resident memory, printed with the machine's load. No database: the dry run against no project
 * videos (every video kept by name), as an import of another lab's file meets it. `ROWS=…` changes the count.
 */
import os from "node:os";
import { dryRunPairwise } from "../lib/pairwise/import/import-pairwise";
import { pairImportOptionsSchema } from "../lib/pairwise/import/import.types";
import { generatedVoteCsv, sampledRss } from "../testkit/pairwise/generated-votes";

async function main() {
  const rows = Number(process.env.ROWS ?? 1_000_000);
  const { file, peakGrowthMiB } = sampledRss(generatedVoteCsv({ rows, pairs: 50_000, refusedEvery: 100_000 }));
  const started = performance.now();
  const answer = await dryRunPairwise(
    {
      options: pairImportOptionsSchema.parse({ format: "csv", name: "bench" }),
      file,
      fileName: "bench.csv",
    },
    [],
  );
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `load average: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")} on ${os.cpus().length} CPUs`,
  );
  console.log(`rows ${answer.rows}, votes ${answer.votes}, pairs ${answer.pairs}, refused ${answer.refusedCount}`);
  console.log(
    `${seconds.toFixed(1)} s (${Math.round(answer.rows / seconds)} rows/s), peak RSS growth ${peakGrowthMiB().toFixed(0)} MiB`,
  );
  if (answer.rows !== rows) throw new Error(`read ${answer.rows} rows of ${rows}`);
}

void main();
