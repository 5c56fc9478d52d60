import type { Metadata } from "next";
import { cookies } from "next/headers";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";
import { Providers } from "./providers";
import { parseTheme, THEME_COOKIE, themeClass } from "@/lib/theme/theme";

export const metadata: Metadata = {
  title: "FrameJury",
  description: "Judge videos with vision LLMs and check the judgments with humans.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page, the 404 included, is rendered per request: proxy.ts gives each response a fresh CSP
  // nonce, and a page prerendered at build time would carry scripts without it.
  await connection();
  // The chosen theme's class, rendered by the server so the first paint has it (no inline script).
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" className={themeClass(theme)} data-theme={theme}>
      <body className="min-h-screen font-sans">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
