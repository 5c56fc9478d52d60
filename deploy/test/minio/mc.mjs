#!/usr/bin/env node
// The stand-in's `mc` (deploy/test/minio.Dockerfile): `mc ready local` (the server answers on 127.0.0.1:9000),
// `mc alias set NAME URL USER PASSWORD` and `mc mb [--ignore-existing] NAME/BUCKET`, as compose.yaml uses them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const aliases = path.join(os.homedir(), ".mc-standin-aliases.json");
const [command, ...args] = process.argv.slice(2);

function readAliases() {
  return fs.existsSync(aliases) ? JSON.parse(fs.readFileSync(aliases, "utf8")) : {};
}

async function main() {
  if (command === "ready") {
    const response = await fetch("http://127.0.0.1:9000/");
    if (!response.ok) console.error(`mc ready: ${response.status} ${await response.text()}`);
    return response.ok ? 0 : 1;
  }
  if (command === "alias" && args[0] === "set") {
    const [, name, url] = args;
    fs.writeFileSync(aliases, JSON.stringify({ ...readAliases(), [name]: url }));
    return 0;
  }
  if (command === "mb") {
    const ignoreExisting = args.includes("--ignore-existing");
    const target = args.find((arg) => !arg.startsWith("--")) ?? "";
    const [name, bucket] = target.split("/");
    const url = readAliases()[name];
    if (!url || !bucket) throw new Error(`mc mb: unknown alias or no bucket in ${JSON.stringify(target)}`);
    const response = await fetch(`${url}/${bucket}`, { method: "PUT" });
    if (response.ok || (response.status === 409 && ignoreExisting)) {
      console.log(`Bucket created successfully \`${target}\`.`);
      return 0;
    }
    throw new Error(`mc mb: ${response.status} ${await response.text()}`);
  }
  throw new Error(`the mc stand-in does not do ${JSON.stringify([command, ...args].join(" "))}`);
}

main().then(
  (status) => process.exit(status),
  (error) => {
    console.error(String(error instanceof Error ? error.message : error));
    process.exit(1);
  },
);
