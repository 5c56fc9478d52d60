// ESLint (flat config): Next's core-web-vitals and TypeScript sets (react, react-hooks, jsx-a11y, import,
// typescript-eslint's recommended rules), plus the architecture rules the team guide states: the task-agnostic core
// never reaches into one task's folder, lib/ outside lib/tasks never imports Next.js, pages query only through lib/.
// Formatting is Prettier's job (.prettierrc), not ESLint's.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTypeScript from "eslint-config-next/typescript";

/** Sources the core-boundary rules apply to: everything below app/ except the tasks' own code and the test harness. */
const CORE = ["lib/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"];
const NOT_CORE = [
  // The composition root builds the task catalogue from the registry: it is where the tasks are wired in.
  "lib/app-context/**",
  "lib/tasks/**",
  "components/tasks/**",
  "testkit/testing/**",
  "lib/generated/**",
  "components/generated/**",
  "**/*.test.{ts,tsx}",
];

// The layers, bottom up: lib/ (plain TypeScript), components/ (views), app/ (pages, route handlers, server actions).
// A lower layer never imports a higher one (tests may: a lib/ test drives a route handler). A task's pages
// (components/tasks/<id>/pages) are app/ code that a one-line app/ page mounts, so they may use app/'s server helpers.
// The core receives the task catalogue (lib/task-modules/task-catalogue.ts), which the composition root
// (lib/app-context/app-context.ts) builds from the registry: it never imports the registry's list of task modules or
// the generated list of modules, which import the core back (TASK_MODULE_PORT_ZONE).
const LAYER_ZONES = [
  {
    target: "./lib",
    from: ["./components", "./app"],
    message: "lib/ is the lowest layer: it never imports components/ or app/ (pass what it needs in).",
  },
  { target: "./components", from: "./app", message: "components/ sits below app/: move what both need into lib/." },
];

const TASK_MODULE_PORT_ZONE = {
  target: ["./lib", "./components"],
  from: ["./lib/tasks/modules.ts", "./lib/tasks/video-item-lists.ts", "./lib/generated/tasks"],
  message:
    "The core receives the task catalogue (lib/task-modules/task-catalogue.ts) the composition root builds, never the registry's task modules.",
};

// The declarations' registry (lib/tasks/registry.ts) loads every task folder's declarations: components may import it
// (the browser's built-in catalogue), the core receives a catalogue (lib/task-modules/task-catalogue.ts).
const TASK_DECLARATIONS_PORT_ZONE = {
  target: "./lib",
  from: "./lib/tasks/registry.ts",
  message:
    "The core receives a catalogue (builtInCatalogue(), catalogFor, lib/task-modules/task-catalogue.ts), never the declarations' registry.",
};

// People tell runs, videos and queues apart by names (lib/run-records/run-name.ts, file names), never by the tail of an id
// ("run 1ovvj3"): no page or component cuts an id to show it.
const ID_NAME = "/^(id|[a-z]\\w*Id)$/";
const NO_ID_TAILS = [
  {
    selector: `CallExpression[callee.property.name=/^(slice|substring|substr)$/]:matches([callee.object.name=${ID_NAME}], [callee.object.property.name=${ID_NAME}])`,
    message: "Show a name (lib/run-records/run-name.ts, the file name), never a slice of an id.",
  },
  {
    selector: "TemplateLiteral:has(> TemplateElement[value.raw=/\\brun $/i]):has(Identifier[name='id'])",
    message: "Show the run's name (lib/run-records/run-name.ts), never `run ${id}`.",
  },
  {
    selector: "JSXText[value=/\\brun $/i] + JSXExpressionContainer:has(Identifier[name='id'])",
    message: "Show the run's name (lib/run-records/run-name.ts), never run {id}.",
  },
];
const NO_PAGE_QUERIES = {
  selector: "MemberExpression[object.type='Identifier'][object.name='prisma']",
  message:
    "Pages and route handlers query only through lib/: pass prisma to a lib/ function, never call prisma.<model> here.",
};
/** `deps.prisma.video.findUnique(…)`: a query through a dependency bundle (appDeps()) is a query all the same. */
const NO_DEPS_QUERIES = {
  selector: "MemberExpression[object.type='MemberExpression'][object.property.name='prisma']",
  message: NO_PAGE_QUERIES.message,
};
/** Route handlers get the database from their wrapper's context (lib/api), and query only through lib/. */
const NO_ROUTE_PRISMA_IMPORT = {
  name: "@/lib/db/prisma",
  message:
    "Route handlers never import the database: take `prisma` from the wrapper's context and pass it to a lib/ function.",
};
/** Caption and QA results reach pages and route handlers only through the redacting reads. */
const REDACTED_READS = [
  {
    group: ["**/caption-results", "**/caption-run-results", "**/caption-overview", "**/caption-detail"],
    importNames: ["runCaptionResults", "projectCaptionOverview", "projectCaptionLeaderboard", "captionDetail"],
    message: "Import the redacting read from visible-caption-results instead.",
  },
  {
    group: ["**/qa-run-questions", "**/qa-overview", "**/qa-questions"],
    importNames: ["runQaResults", "runQaResultSlices", "projectQaOverview", "questionDetail"],
    message: "Import the redacting read from visible-qa-results instead.",
  },
];

// The layers of lib/ (scripts/layers.json, drawn in docs/architecture.md): a folder never imports a folder of a higher
// layer. The rule runs as `layers/no-restricted-paths` (the import plugin under a second name) so its zones add to
// the core's instead of replacing them. A file the table's `allowed` list names gets a block of its own that lets
// it import just the folders listed for it; scripts/import-layers.test.ts checks the same table on the whole graph,
// with circles within a layer and the allowed list's shrinking.
/** The import plugin Next's config registers (eslint-config-next brings it; the app does not depend on it itself). */
const importPlugin = nextVitals.find((block) => block.plugins?.import).plugins.import;
const LAYER_TABLE = JSON.parse(fs.readFileSync(new URL("./scripts/layers.json", import.meta.url), "utf8"));
const LAYER_UNITS = LAYER_TABLE.layers.flatMap((layer, rank) =>
  layer.folders.map((unit) => ({ unit, rank, layer: layer.name })),
);
const isFileUnit = (unit) => /\.tsx?$/.test(unit);
/** The units inside `unit` (lib/tasks/* inside lib/tasks): they are units of their own, maybe of another layer. */
const unitsInside = (unit) => LAYER_UNITS.filter((other) => other.unit.startsWith(`${unit}/`));
/** The glob of a unit's files for a config block's `files`; the units inside it are left to their own block. */
const unitGlob = (unit) => (isFileUnit(unit) ? unit : `${unit}/**`);
const REPOSITORY = path.dirname(fileURLToPath(import.meta.url));
/**
 * One zone per forbidden unit: its files less the units inside it, which have zones of their own when they are
 * forbidden too (the plugin matches a glob exception against the import's absolute path).
 */
function layerZones(rank, allowedUnits = new Set()) {
  const layer = LAYER_TABLE.layers[rank];
  return LAYER_UNITS.filter((higher) => higher.rank > rank && !allowedUnits.has(higher.unit)).map((higher) => ({
    target: "./lib",
    from: `./${unitGlob(higher.unit)}`,
    except: unitsInside(higher.unit).map((inside) => path.join(REPOSITORY, unitGlob(inside.unit))),
    message: `Layer "${layer.name}" never imports ${higher.unit} (layer "${higher.layer}"): see scripts/layers.json.`,
  }));
}
const ALLOWED_FILES = [...new Set(LAYER_TABLE.allowed.flatMap((entry) => entry.files))];
const layerRule = (zones) => ({ "layers/no-restricted-paths": ["error", { zones }] });
// The top layer imports every layer, so it has no block.
const LAYER_BLOCKS = [
  ...LAYER_TABLE.layers.slice(0, -1).map((layer, rank) => ({
    files: layer.folders.map(unitGlob),
    ignores: [
      ...layer.folders.flatMap((unit) => unitsInside(unit).map((inside) => unitGlob(inside.unit))),
      ...ALLOWED_FILES,
      "**/*.test.{ts,tsx}",
    ],
    plugins: { layers: importPlugin },
    rules: layerRule(layerZones(rank)),
  })),
  ...ALLOWED_FILES.map((file) => {
    const unit = LAYER_UNITS.filter((candidate) => inUnit(file, candidate.unit)).reduce((a, b) =>
      b.unit.split("/").length > a.unit.split("/").length ? b : a,
    );
    const allowedUnits = new Set(LAYER_TABLE.allowed.filter((entry) => entry.files.includes(file)).map((e) => e.to));
    return { files: [file], plugins: { layers: importPlugin }, rules: layerRule(layerZones(unit.rank, allowedUnits)) };
  }),
];
/** Whether `file` lies in `unit` (`*` stands for one folder); a file lies in its most specific unit. */
function inUnit(file, unit) {
  const unitParts = unit.split("/");
  const fileParts = file.split("/");
  if (!unitParts.every((part, i) => part === "*" || part === fileParts[i])) return false;
  return fileParts.length > unitParts.length || file === unit;
}

/** Files whose size the unit rule below does not check, each with its reason (none today). */
const SIZE_EXCEPTIONS = [];

const config = [
  {
    ignores: [
      ".next/**",
      ".data/**",
      "lib/generated/**",
      "components/generated/**",
      "testkit/generated/**",
      "public/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      "node_modules/**",
    ],
  },
  js.configs.recommended,
  ...nextVitals,
  ...nextTypeScript,
  {
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // `_`-prefixed names mark a parameter or destructured rest that is there on purpose.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/no-unused-expressions": "error",
      // React Compiler diagnostics (react-hooks v7's recommended set): the app does not run the compiler, and the
      // screens keep the latest value in a ref read during render and sync state in effects on purpose (the review
      // screen's queued keys). The classic rules-of-hooks and exhaustive-deps stay on.
      "react-hooks/refs": "off",
      "react-hooks/set-state-in-effect": "off",
      "react-hooks/immutability": "off",
      "react-hooks/preserve-manual-memoization": "off",
      // Input validation strips and rejects control characters on purpose (names, paths, error excerpts).
      "no-control-regex": "off",
    },
  },
  {
    // No React below lib/ and scripts/: a callback parameter named `use` is not React's use().
    files: ["lib/**/*.ts", "scripts/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // Stream sinks: an async generator that only consumes its source is how stream.pipeline ends a chain.
    files: ["lib/storage/**/*.ts"],
    rules: { "require-yield": "off" },
  },
  {
    // Published approximation coefficients, quoted with every digit their source gives.
    files: ["lib/stats/mcnemar.ts"],
    rules: { "no-loss-of-precision": "off" },
  },
  {
    // The core is task-agnostic: it may read the registry at lib/tasks/ top level (lib/tasks/*.ts, but the task modules
    // only through the port: TASK_MODULE_PORT_ZONE), never a task's own
    // folder (lib/tasks/<id>/**, components/tasks/<id>/**). For a task, app/ holds only thin mount points at the
    // task's URLs (`export { default } from "@/components/tasks/<id>/pages/…"`, `export { GET } from
    // "@/lib/tasks/<id>/routes/…"`), since Next.js routes by file; lib/tasks/task-names-guard.test.ts checks that
    // every other app/ file leaves task folders alone. A core test may run the core against a real task.
    files: CORE,
    ignores: NOT_CORE,
    rules: {
      "import/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: ["./lib", "./components"],
              from: ["./lib/tasks/*/**", "./components/tasks/*/**"],
              except: ["./lib/tasks/*.ts", "./components/tasks/*.tsx", "./components/tasks/*.ts"],
              message:
                "The core is task-agnostic: read the task through the registry (lib/tasks/*.ts), not its own folder.",
            },
            TASK_MODULE_PORT_ZONE,
            TASK_DECLARATIONS_PORT_ZONE,
            ...LAYER_ZONES,
          ],
        },
      ],
    },
  },
  ...LAYER_BLOCKS,
  {
    // The same layer rule in the tasks' own folders (the core's block above carries it for the rest).
    files: ["lib/tasks/**/*.{ts,tsx}", "components/tasks/**/*.{ts,tsx}"],
    ignores: ["components/tasks/*/pages/**", "**/*.test.{ts,tsx}"],
    rules: { "import/no-restricted-paths": ["error", { zones: LAYER_ZONES }] },
  },
  {
    // lib/ is plain TypeScript any runtime can load (worker, CLI, tests): Next.js stays in app/ and in the tasks' glue.
    files: ["lib/**/*.{ts,tsx}"],
    ignores: ["lib/tasks/**", "testkit/testing/**", "lib/generated/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [{ name: "next", message: "lib/ outside lib/tasks never imports Next.js: keep it in app/." }],
          patterns: [{ group: ["next/*"], message: "lib/ outside lib/tasks never imports Next.js: keep it in app/." }],
        },
      ],
    },
  },
  {
    // What a process holds once (database client, storage, job queue, auth, logger, metrics) lives in the one process
    // slot (lib/config/process-slot.ts): Next.js loads a server module once per route bundle, so anything else kept on
    // globalThis is a second, unowned process-wide slot. The browser's globals are read by name (`location`).
    files: ["lib/**/*.{ts,tsx}"],
    ignores: ["lib/generated/**", "lib/config/process-slot.ts"],
    rules: {
      "no-restricted-globals": [
        "error",
        {
          name: "globalThis",
          message: "Keep what the process holds once in lib/config/process-slot.ts (the one process slot).",
        },
      ],
    },
  },
  {
    // A task's route handlers (lib/tasks/<id>/routes) are app/ code that app/ mounts: the same rules hold for them.
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "lib/tasks/*/routes/**/*.ts"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-syntax": ["error", ...NO_ID_TAILS],
      // Caption and QA results reach pages and route handlers only through the redacting reads (visible-caption-results,
      // visible-qa-results), which hide judge values the viewer may not see yet and withhold aggregates and exports whole.
      "no-restricted-imports": ["error", { patterns: REDACTED_READS }],
    },
  },
  {
    // Pages are thin: every query lives in a lib/ function that checks permission (lib/authz/permissions.ts) and, for
    // judge values, visibility (lib/visibility). A page may hand `prisma` to such a function, never query with it.
    // A task's pages are written in components/tasks/<id>/pages and mounted by a one-line app/ page.
    files: ["app/**/page.tsx", "components/tasks/*/pages/**/*.tsx"],
    rules: { "no-restricted-syntax": ["error", ...NO_ID_TAILS, NO_PAGE_QUERIES] },
  },
  {
    // Route handlers are thin the same way, and stricter: the database reaches them only in their wrapper's checked
    // context (withProject, withProjectOf, withActor in lib/api), so a route cannot query before its permission check.
    files: ["app/**/route.ts"],
    rules: {
      "no-restricted-syntax": ["error", ...NO_ID_TAILS, NO_PAGE_QUERIES, NO_DEPS_QUERIES],
      "no-restricted-imports": ["error", { paths: [NO_ROUTE_PRISMA_IMPORT], patterns: REDACTED_READS }],
    },
  },
  {
    // Units a reader can hold in mind: no function over 100 lines and no file over 600, blank lines and comments not
    // counted (a doc comment is not the unit's size). Tests and generated code are exempt: a test's table of cases
    // reads best whole. SIZE_EXCEPTIONS names each unit allowed more, and why.
    files: ["**/*.{ts,tsx,mjs}"],
    ignores: [
      "**/*.test.{ts,tsx}",
      "**/*.generated.ts",
      "e2e/**",
      ...SIZE_EXCEPTIONS.map((exception) => exception.file),
    ],
    rules: {
      "max-lines-per-function": ["error", { max: 100, skipBlankLines: true, skipComments: true }],
      "max-lines": ["error", { max: 600, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    // Tests stub and poke at untyped shapes on purpose (scripts/test.ts reads the runners' JSON reports), and
    // vi.hoisted code runs before the imports, so it requires what it needs.
    files: ["**/*.test.{ts,tsx}", "e2e/**", "testkit/testing/**", "scripts/test.ts"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-require-imports": "off",
    },
  },
];

export default config;
