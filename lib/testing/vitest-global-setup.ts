import type { TestProject } from "vitest/node";
import { createTestDatabase, startTestServer } from "./test-database";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    serverBaseUrl: string;
  }
}

/** One real PostgreSQL server and one fresh database for the whole Vitest run. */
export default async function setup(project: TestProject) {
  const server = await startTestServer();
  const database = await createTestDatabase(server, "vitest");
  project.provide("databaseUrl", database.url);
  project.provide("serverBaseUrl", server.baseUrl);
  return async () => {
    await database.drop();
    await server.stop();
  };
}
