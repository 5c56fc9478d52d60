// `npm run bench:prompt-list`: what a large prompt list costs the web process.
// On a throw-away database (on DATABASE_URL's / TEST_DATABASE_URL's server when set, else an embedded
// PostgreSQL) it:
//   1. sends a 600,000-entry list (the size that once took 50 s to store and 17–24 s per completeness
//      request) and times its refusal (413, over MAX_PROMPT_LIST_ENTRIES);
//   2. fills a project to MAX_PROJECT_PROMPT_ENTRIES (lists of at most MAX_PROMPT_LIST_ENTRIES) with 3,000
//      videos, one sample of the first 3,000 prompts, half of them from generator genA and half from genB;
//   3. times projectCompleteness — what GET …/completeness and the Completeness page run — for page 1, a
//      deep page and the last, N timed calls each after 2 warm-ups (default 5), printing p50 / max and the answer's size,
//      against the 1 s target. Numbers only, no assertions; the load average is printed, as other helpers'
//      benchmarks share the machine.
//   --explain prints the statements' EXPLAIN (ANALYZE, BUFFERS); --prompts N writes N prompts straight to the entry
//   tables instead (set-based SQL, past the maxima, the rows savePromptList writes) to see how the report grows.
//   npm run bench:prompt-list [-- --iterations 5 --explain --prompts 600000]
import os from "node:os";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    iterations: { type: "string", default: "5" },
    explain: { type: "boolean", default: false },
    prompts: { type: "string" },
  },
});
const ITERATIONS = Math.max(1, Number(values.iterations));
const WARM_UP = 2;
const TARGET_MS = 1000;
const REFUSED_SIZE = 600_000;
const PROMPTS = values.prompts === undefined ? undefined : Number(values.prompts);

const { createTestDatabase, startTestServer } = await import("../testkit/testing/test-database");
const server = await startTestServer();
const database = await createTestDatabase(server, "bench_prompt_list");
process.env.DATABASE_URL = database.url;
(await import("../lib/app-context/app-context")).appContext();
const { prisma } = await import("../lib/db/prisma");
const { makeUser } = await import("../testkit/testing/fixtures");
const { createProject } = await import("../lib/projects/projects");
const { getStorage } = await import("../lib/storage/storage");
const store = await import("../lib/videos/prompt-list-store");
const { projectAccess } = await import("../lib/authz/permissions");
const { completenessFromDatabase } = await import("../lib/videos/completeness-query");
const { Prisma } = await import("../lib/generated/prisma/client");

/** --explain: the report's statement once more, as EXPLAIN (ANALYZE, BUFFERS), its plan printed. */
async function explain(projectId: string) {
  type Raw = (sql: InstanceType<typeof Prisma.Sql>) => Promise<unknown>;
  const explaining = <T extends object>(client: T): T =>
    new Proxy(client, {
      get(target, property) {
        const value = Reflect.get(target, property) as unknown;
        if (property === "$transaction")
          return (run: (tx: unknown) => Promise<unknown>) =>
            (value as (fn: (tx: object) => Promise<unknown>) => Promise<unknown>).call(target, (tx) =>
              run(explaining(tx)),
            );
        if (property !== "$queryRaw")
          return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        return async (strings: TemplateStringsArray, ...args: unknown[]) => {
          const sql = Prisma.sql(strings, ...(args as Parameters<typeof Prisma.sql>[1][]));
          const plan = (await (value as Raw).call(target, Prisma.sql`EXPLAIN (ANALYZE, BUFFERS) ${sql}`)) as {
            "QUERY PLAN": string;
          }[];
          console.log(plan.map((row) => row["QUERY PLAN"]).join("\n"));
          return (value as Raw).call(target, sql);
        };
      },
    });
  await completenessFromDatabase(explaining(prisma), projectId, { page: 1, pageSize: 100 });
}

const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(" ");
const prompt = (i: number) =>
  `A red ball number ${i} rolls down a long wooden ramp in a sunny garden and stops by the fence`;
const lines = (from: number, count: number) => Array.from({ length: count }, (_, i) => prompt(from + i)).join("\n");

async function timed<T>(run: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await run();
  return { ms: performance.now() - start, value };
}

try {
  console.log(
    `prompt list benchmark: ${os.cpus().length} CPUs, Node ${process.version}, database ${database.name}, load average ${loadAverage()}`,
  );
  const owner = await makeUser();
  const deps = { prisma, storage: getStorage() };
  const projectId = (await createProject(prisma, owner, { name: "Prompt list bench" })).id;
  const access = await projectAccess(prisma, owner, projectId, "videos.import");

  const refused = await timed(() =>
    store.savePromptList(deps, access, "Mechanics.txt", lines(0, REFUSED_SIZE)).then(
      () => "stored",
      (error: Error) => error.message,
    ),
  );
  console.log(
    `\n${REFUSED_SIZE.toLocaleString("en")}-entry list: ${refused.value} (${refused.ms.toFixed(0)} ms, parsing included)`,
  );

  let stored = 0;
  if (PROMPTS !== undefined) {
    // --prompts N: the rows savePromptList writes (a list per MAX_PROMPT_LIST_ENTRIES, each entry with its name
    // keys and its dimension row), written set-based straight to the tables, past the maxima.
    const perList = store.MAX_PROMPT_LIST_ENTRIES;
    const text = (i: InstanceType<typeof Prisma.Sql>) =>
      Prisma.sql`'A red ball number ' || ${i} || ' rolls down a long wooden ramp in a sunny garden and stops by the fence'`;
    await prisma.$executeRaw`
      INSERT INTO prompt_list (id, "projectId", name, format, "entryCount", "createdById", "createdAt")
      SELECT 'bench-' || n, ${projectId}, 'Mechanics.txt', 'dimension-txt', least(${perList}::int, ${PROMPTS}::int - n * ${perList}::int), ${owner.userId}, now() + n * interval '1 ms'
      FROM generate_series(0, (${PROMPTS}::int - 1) / ${perList}::int) AS n`;
    await prisma.$executeRaw`
      INSERT INTO prompt_list_entry ("listId", position, "projectId", prompt, "promptKey", dimensions, "nameKeys")
      SELECT 'bench-' || (i / ${perList}::int), i % ${perList}::int, ${projectId}, ${text(Prisma.sql`i`)}, ${text(Prisma.sql`i`)}, ARRAY['Mechanics'], ARRAY[${text(Prisma.sql`i`)}]
      FROM generate_series(0, ${PROMPTS}::int - 1) AS i`;
    await prisma.$executeRaw`
      INSERT INTO prompt_list_entry_dimension ("listId", position, dimension, "projectId", "promptKey", "shownPrompt", first)
      SELECT "listId", position, 'Mechanics', "projectId", "promptKey", prompt, true FROM prompt_list_entry WHERE "projectId" = ${projectId}`;
    // As savePromptList does after storing a list.
    await prisma.$executeRaw`VACUUM (ANALYZE) prompt_list_entry, prompt_list_entry_dimension`;
    stored = PROMPTS;
    console.log(`wrote ${PROMPTS.toLocaleString("en")} prompts straight to the tables (--prompts)`);
  }
  while (stored < store.MAX_PROJECT_PROMPT_ENTRIES) {
    const size = Math.min(store.MAX_PROMPT_LIST_ENTRIES, store.MAX_PROJECT_PROMPT_ENTRIES - stored);
    const saved = await timed(() => store.savePromptList(deps, access, "Mechanics.txt", lines(stored, size)));
    console.log(`stored a ${size.toLocaleString("en")}-entry list in ${saved.ms.toFixed(0)} ms`);
    stored += size;
  }
  const videos = 3000;
  await prisma.video.createMany({
    data: Array.from({ length: videos }, (_, i) => {
      const sha = i.toString(16).padStart(64, "0");
      // Two generators, as a lab comparing models imports them: each is expected to hold every sample.
      const model = i % 2 === 0 ? "genA" : "genB";
      return {
        model,
        projectId,
        sha256: sha,
        sizeBytes: 10n,
        fileName: `${prompt(i)}-0.mp4`,
        relativePath: `${model}/Mechanics/${prompt(i)}-0.mp4`,
        storageKey: `projects/${projectId}/videos/${sha}.mp4`,
        contentType: "video/mp4",
        status: "ready" as const,
        prompt: prompt(i),
        sampleIndex: 0,
        dimensions: ["Mechanics"],
        createdById: owner.userId,
      };
    }),
  });

  console.log(
    `\nprojectCompleteness on ${stored.toLocaleString("en")} prompts / ${videos.toLocaleString("en")} videos, ${ITERATIONS} timed calls after ${WARM_UP} warm-ups (target < ${TARGET_MS} ms)`,
  );
  // The first page, a deep one, and the last: a page starts at its first prompt by an OFFSET over the index.
  const last = Math.ceil((await store.projectCompleteness(deps, access)).totals.missing / 100);
  for (const page of [1, 1000, last]) {
    const query = store.completenessQuerySchema.parse({ page, pageSize: 100 });
    for (let i = 0; i < WARM_UP; i++) await store.projectCompleteness(deps, access, query);
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const run = await timed(() => store.projectCompleteness(deps, access, query));
      times.push(run.ms);
      bytes = JSON.stringify(run.value).length;
    }
    times.sort((a, b) => a - b);
    const p50 = times[Math.floor((times.length - 1) / 2)]!;
    console.log(
      `page ${page}: p50 ${p50.toFixed(0)} ms, max ${times.at(-1)!.toFixed(0)} ms, answer ${(bytes / 1024).toFixed(1)} KiB — ${p50 < TARGET_MS ? "met" : "NOT met"}`,
    );
  }
  if (values.explain) await explain(projectId);
  console.log(`load average (1, 5, 15 min) at the end: ${loadAverage()} on ${os.cpus().length} CPUs`);
} finally {
  await prisma.$disconnect();
  await database.drop();
  await server.stop();
}
