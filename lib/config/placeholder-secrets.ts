/**
 * The deployment files (compose.yaml, deploy/kubernetes/) ship every secret as the placeholder CHANGEME. Each
 * process refuses to start while one is still set, naming the variable, rather than running with a secret anyone
 * who has read those files knows.
 */
export const PLACEHOLDER = "CHANGEME";

/** The variables that hold secrets. DATABASE_URL counts for its password; the others for their whole value. */
export const SECRET_VARIABLES = [
  "APP_SECRET",
  "DATABASE_URL",
  "ADMIN_PASSWORD",
  "S3_SECRET_ACCESS_KEY",
  "AWS_SECRET_ACCESS_KEY",
  "OIDC_CLIENT_SECRET",
  "GITHUB_CLIENT_SECRET",
  "METRICS_TOKEN",
  "OPENAI_API_KEY",
  "FRAMEJURY_API_KEY",
] as const;

export class PlaceholderSecretError extends Error {
  constructor(readonly variables: string[]) {
    super(
      `${variables.join(", ")} ${variables.length === 1 ? "is" : "are"} still the placeholder ${PLACEHOLDER}: ` +
        `set ${variables.length === 1 ? "it" : "each"} to a secret of your own (compose: in .env beside compose.yaml; ` +
        `Kubernetes: in the Secret) before starting FrameJury. See docs/deploy.md.`,
    );
    this.name = "PlaceholderSecretError";
  }
}

function holdsPlaceholder(name: string, value: string): boolean {
  const has = (text: string) => text.toUpperCase().includes(PLACEHOLDER);
  if (name !== "DATABASE_URL") return has(value);
  try {
    const url = new URL(value);
    return has(decodeURIComponent(url.password)) || has(url.searchParams.get("password") ?? "");
  } catch {
    return has(value);
  }
}

/** The secret variables of `env` still set to the placeholder (empty when none is). */
export function placeholderSecrets(env: Readonly<Record<string, string | undefined>> = process.env): string[] {
  return SECRET_VARIABLES.filter((name) => {
    const value = env[name];
    return value !== undefined && holdsPlaceholder(name, value);
  });
}

/** Throws PlaceholderSecretError, naming them, when any secret variable is still the placeholder. */
export function assertNoPlaceholderSecrets(env: Readonly<Record<string, string | undefined>> = process.env): void {
  const found = placeholderSecrets(env);
  if (found.length) throw new PlaceholderSecretError(found);
}

/** For a process's first line: says which variables hold the placeholder on stderr, and exits with status 78. */
export function refuseToStartWithPlaceholderSecrets(
  prefix: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): void {
  try {
    assertNoPlaceholderSecrets(env);
  } catch (error) {
    if (!(error instanceof PlaceholderSecretError)) throw error;
    console.error(`${prefix} refusing to start: ${error.message}`);
    // EX_CONFIG (sysexits.h): a configuration error.
    process.exit(78);
  }
}
