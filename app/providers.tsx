"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { z } from "zod";
// Installs the built-in tasks' declarations in the browser page, where the core reads them (builtInDeclarations).
import "@/lib/tasks/registry";

// Zod 4 tests whether it may compile parsers with `new Function`; under the page's Content-Security-Policy
// (no 'unsafe-eval') that test is blocked and reported as a violation. Parse without compiling.
z.config({ jitless: true });

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(() => new QueryClient({ defaultOptions: { queries: { staleTime: 10_000, retry: 1 } } }));
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
