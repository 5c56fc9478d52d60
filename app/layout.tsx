import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: "FrameJury",
  description: "Judge videos with vision LLMs and check the judgments with humans.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page, the 404 included, is rendered per request: proxy.ts gives each response a fresh CSP
  // nonce, and a page prerendered at build time would carry scripts without it.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen font-sans">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
