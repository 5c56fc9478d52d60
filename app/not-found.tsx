import Link from "next/link";

export default function NotFound() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col items-center justify-center gap-3 px-4 text-center">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="text-sm text-slate-500">This page does not exist, or you are not a member of its project.</p>
      <Link href="/" className="text-sm text-indigo-700 underline">
        Back to your projects
      </Link>
    </main>
  );
}
