import { z } from "zod";

// Zod 4 tests whether it may compile parsers with `new Function`; under the page's Content-Security-Policy (no
// 'unsafe-eval') that test is blocked and reported as a violation. Parse without compiling. Its own module, imported
// first by app/providers.tsx, so it runs before any import of that file parses with Zod.
z.config({ jitless: true });
