import type { TestProject } from "vitest/node";
import { taskModuleReaders } from "./task-module-readers";
import { copyTestDatabase, createTestDatabase, startTestServer } from "./test-database";

declare module "vitest" {
  export interface ProvidedContext {
    /** One database per Vitest worker (VITEST_POOL_ID 1 uses the first): files running side by side never meet. */
    databaseUrls: string[];
    serverBaseUrl: string;
    /** The test files that read the application context (testkit/testing/task-module-readers.ts): the setup builds it for these. */
    taskModuleReaders: string[];
  }
}

/**
 * One real PostgreSQL server for the whole Vitest run, and a fresh database for each worker: the first migrated,
 * the others copied from it. A worker runs its files one after another on its own database, as the whole run once
 * did on one.
 */
export default async function setup(project: TestProject) {
  const server = await startTestServer();
  const first = await createTestDatabase(server, "vitest");
  const copies = [];
  for (let worker = 2; worker <= (project.config.maxWorkers ?? 1); worker += 1)
    copies.push(await copyTestDatabase(server, first.name, `vitest${worker}`));
  const databases = [first, ...copies];
  project.provide(
    "databaseUrls",
    databases.map((d) => d.url),
  );
  project.provide("serverBaseUrl", server.baseUrl);
  project.provide("taskModuleReaders", taskModuleReaders((await project.globTestFiles()).testFiles));
  return async () => {
    for (const database of databases) await database.drop();
    await server.stop();
  };
}
