import { inject } from "vitest";

// Every test file talks to the run's real database through the normal code paths.
process.env.DATABASE_URL = inject("databaseUrl");
process.env.APP_SECRET ??= "test-secret-test-secret-test-secret-0123456789";
process.env.APP_URL ??= "http://localhost:3000";
