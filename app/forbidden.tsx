import Link from "next/link";

/** A member whose role may not open this page (a viewer on the import page); requirePageProjectAccess sends them here with a 403. */
export default function Forbidden() {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col items-center justify-center gap-3 px-4 text-center">
      <h1 className="text-2xl font-semibold">Not allowed</h1>
      <p className="text-sm text-slate-500">
        Your role in this project may not open this page. A project owner can change your role.
      </p>
      <Link href="/" className="text-sm text-indigo-700 underline">
        Back to your projects
      </Link>
    </main>
  );
}
