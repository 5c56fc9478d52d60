#!/usr/bin/env node
// The `framejury` bin: loads tsx, then runs scripts/framejury.ts (TypeScript, like every npm run script).
import { register } from "tsx/esm/api";

register();
await import("./framejury.ts");
