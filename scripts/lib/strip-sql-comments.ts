/**
 * A migration's SQL without its whole-line `--` comments. Prisma's WebAssembly schema engine (used to
 * author migrations here) splits a script at every ";", comments included, so it is given this copy.
 * Only whole lines are removed: a "--" after code may sit inside a string literal.
 */
export function stripSqlLineComments(sql: string): string {
  return sql
    .split("\n")
    .filter((line) => !/^\s*--/.test(line))
    .join("\n");
}
