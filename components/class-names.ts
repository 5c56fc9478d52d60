// Class-name helpers shared by server and client components. This module has no "use client": a
// function exported from a client module can only be rendered or passed as a prop from the server,
// never called there (calling buttonClass() from a server page made it a 500).

export function buttonClass(variant: "primary" | "secondary" | "danger" = "primary"): string {
  const base = "inline-flex items-center rounded-md px-3 py-1.5 text-sm font-medium disabled:opacity-50";
  if (variant === "secondary") return `${base} border border-slate-300 bg-white text-slate-800 hover:bg-slate-100`;
  if (variant === "danger") return `${base} border border-red-300 bg-white text-red-700 hover:bg-red-50`;
  return `${base} bg-indigo-600 text-white hover:bg-indigo-700`;
}
