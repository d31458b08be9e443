/**
 * A `server.json` package or remote as a Lass tool-server record: npm → `npx -y pkg@version`,
 * pypi → `uvx pkg==version`, oci → `docker run -i --rm image`, nuget → `dnx pkg@version --yes`,
 * a remote → an `http` or `sse` record; secrets become environment references.
 */
import { LassError } from "../../errors.ts";
import type {
  RegistryArgument,
  RegistryInputNeed,
  RegistryPackage,
  RegistryTransport,
  ServerJson,
} from "../../../wire/registry.ts";
import { type InputContext, prefixed, resolveInput, variableOf } from "./inputs.ts";

/** A record's transport fields, before it gets an id and a name. */
export interface RecordDraft {
  transport: "stdio" | "http" | "sse";
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  url?: string;
  headers?: Record<string, string>;
}

/** What a package or remote becomes: the draft, its inputs, the variables to set, notes. */
export interface RecordPlan {
  draft: RecordDraft;
  inputs: RegistryInputNeed[];
  envVariables: string[];
  notes: string[];
}

/** The runner each package type is started with, as the publisher's `runtimeHint` names it. */
const RUNNERS: Record<string, string> = { npm: "npx", pypi: "uvx", oci: "docker", nuget: "dnx" };

const DEFAULT_BASES: Record<string, string[]> = {
  npm: ["https://registry.npmjs.org"],
  pypi: ["https://pypi.org"],
  nuget: ["https://api.nuget.org", "https://api.nuget.org/v3/index.json"],
};

/** The short name of a server: `io.github.user/weather` → `weather`. */
export function shortName(server: ServerJson): string {
  return server.name.split("/").at(-1) || server.name;
}

function newContext(server: ServerJson, given: Record<string, string>): InputContext {
  return { given, prefix: variableOf(shortName(server)), needs: [], notes: [] };
}

function planOf(draft: RecordDraft, context: InputContext): RecordPlan {
  const envVariables = [
    ...new Set(context.needs.flatMap((need) => need.variable ? [need.variable] : [])),
  ];
  return { draft, inputs: context.needs, envVariables, notes: context.notes };
}

/** `io.example/tool 1.0.0`, or the name alone when it has no version. */
function serverLabel(server: ServerJson): string {
  return server.version ? `${server.name} ${server.version}` : server.name;
}

function indexProblem(count: number, list: string): string {
  return count === 0
    ? `this version has no ${list}`
    : `must be an index into ${list} (0-${count - 1})`;
}

function refuse(message: string, path: string, detail: string): LassError {
  return new LassError("invalid-request", message, [{ path, message: detail }]);
}

/** The command-line words of a list of arguments; left-out optional ones are noted. */
function argumentWords(
  list: RegistryArgument[] | undefined,
  field: "runtimeArguments" | "packageArguments",
  context: InputContext,
): string[] {
  const words: string[] = [];
  (list ?? []).forEach((argument, index) => {
    const key = `${field}.${index}`;
    const named = argument.type === "named" && argument.name;
    const label = named
      ? `argument ${argument.name}`
      : `argument ${argument.valueHint ?? argument.value ?? index + 1}`;
    const variable = prefixed(
      context,
      argument.valueHint ?? argument.name?.replace(/^-+/, "") ?? `arg_${index + 1}`,
    );
    const value = resolveInput(argument, { key, label, variable, whole: true }, context);
    if (argument.isRepeated) {
      context.notes.push(`${label} may be repeated; the record has it once (add more in args)`);
    }
    if (value === undefined) {
      if (named) context.notes.push(`optional ${label} was left out`);
      return;
    }
    if (named) words.push(argument.name!, value);
    else words.push(value);
  });
  return words;
}

/** The environment of a package: each variable's value, or a reference to Lass's own. */
function packageEnv(pkg: RegistryPackage, context: InputContext): Record<string, string> {
  const env: Record<string, string> = {};
  for (const variable of pkg.environmentVariables ?? []) {
    const value = resolveInput(variable, {
      key: `env.${variable.name}`,
      label: `env ${variable.name}`,
      variable: variableOf(variable.name),
      whole: true,
    }, context);
    if (value !== undefined) env[variable.name] = value;
  }
  return env;
}

/** An OCI image reference with the version as its tag when the identifier has none. */
function imageOf(pkg: RegistryPackage): string {
  const last = pkg.identifier.split("/").at(-1) ?? "";
  if (!pkg.version || last.includes(":") || last.includes("@")) return pkg.identifier;
  return `${pkg.identifier}:${pkg.version}`;
}

function needVersion(pkg: RegistryPackage, index: number): string {
  if (pkg.version) return pkg.version;
  throw refuse(
    `the ${pkg.registryType} package ${pkg.identifier} names no version`,
    `packages.${index}.version`,
    "is required for npm, pypi and nuget packages",
  );
}

/**
 * The record for `server.packages[index]` with the user's `given` input values. Throws
 * `invalid-request` for an mcpb bundle (with what to do instead), an unknown registry type, or a
 * package that serves HTTP rather than stdio.
 */
export function planPackage(
  server: ServerJson,
  index: number,
  given: Record<string, string> = {},
): RecordPlan {
  const pkg = server.packages?.[index];
  if (!pkg) {
    throw refuse(
      `${serverLabel(server)} has no package ${index}`,
      "package",
      indexProblem(server.packages?.length ?? 0, "packages"),
    );
  }
  const type = pkg.registryType.toLowerCase();
  if (type === "mcpb") throw mcpbRefusal(pkg, index);
  const runner = RUNNERS[type];
  if (!runner) {
    throw refuse(
      `the package ${pkg.identifier} comes from the ${pkg.registryType} registry; Lass adds ` +
        "npm, pypi, oci and nuget packages (and remotes)",
      `packages.${index}.registryType`,
      "must be npm, pypi, oci or nuget",
    );
  }
  const transport = pkg.transport?.type ?? "stdio";
  if (transport !== "stdio") {
    throw refuse(
      `the package ${pkg.identifier} serves ${transport} at ${pkg.transport?.url ?? "a URL"} ` +
        "once started; Lass starts stdio packages only: start it yourself and add its URL as " +
        "an http or sse server",
      `packages.${index}.transport.type`,
      "must be stdio",
    );
  }
  const context = newContext(server, given);
  if (pkg.runtimeHint && pkg.runtimeHint !== runner) {
    context.notes.push(
      `the publisher suggests running it with ${pkg.runtimeHint}; Lass uses ${runner}`,
    );
  }
  const base = pkg.registryBaseUrl?.replace(/\/+$/, "");
  const customBase = base && DEFAULT_BASES[type] && !DEFAULT_BASES[type].includes(base);
  const runtime = argumentWords(pkg.runtimeArguments, "runtimeArguments", context);
  const env = packageEnv(pkg, context);
  const packageArgs = argumentWords(pkg.packageArguments, "packageArguments", context);
  let args: string[];
  if (type === "npm") {
    const registry = customBase ? [`--registry=${base}`] : [];
    args = ["-y", ...registry, ...runtime, `${pkg.identifier}@${needVersion(pkg, index)}`];
    args.push(...packageArgs);
  } else if (type === "pypi") {
    const indexUrl = customBase ? ["--index-url", base!] : [];
    args = [
      ...indexUrl,
      ...runtime,
      `${pkg.identifier}==${needVersion(pkg, index)}`,
      ...packageArgs,
    ];
  } else if (type === "oci") {
    // The container sees only the variables passed with -e (docker reads each value from its own
    // environment, which is the record's env).
    const passed = Object.keys(env).flatMap((name) => ["-e", name]);
    args = ["run", "-i", "--rm", ...runtime, ...passed, imageOf(pkg), ...packageArgs];
  } else {
    const source = customBase ? ["--add-source", base!] : [];
    args = [...runtime, `${pkg.identifier}@${needVersion(pkg, index)}`, "--yes", ...source];
    if (packageArgs.length) args.push("--", ...packageArgs);
  }
  const draft: RecordDraft = { transport: "stdio", command: runner, args };
  if (Object.keys(env).length) draft.env = env;
  return planOf(draft, context);
}

function mcpbRefusal(pkg: RegistryPackage, index: number): LassError {
  const hash = pkg.fileSha256 ? ` (SHA-256 ${pkg.fileSha256})` : "";
  return refuse(
    `${pkg.identifier} is an MCP bundle (mcpb), which Lass does not install or run: download ` +
      `it${hash}, check its hash, unpack it (npx @anthropic-ai/mcpb unpack <file> <folder>) and ` +
      "add the command its manifest.json names as a stdio server",
    `packages.${index}.registryType`,
    "mcpb bundles are not added automatically",
  );
}

const REMOTE_TRANSPORTS: Record<string, "http" | "sse"> = {
  "streamable-http": "http",
  sse: "sse",
};

/** The record for `server.remotes[index]`: its URL (variables filled) and headers. */
export function planRemote(
  server: ServerJson,
  index: number,
  given: Record<string, string> = {},
): RecordPlan {
  const remote: RegistryTransport | undefined = server.remotes?.[index];
  if (!remote) {
    throw refuse(
      `${serverLabel(server)} has no remote ${index}`,
      "remote",
      indexProblem(server.remotes?.length ?? 0, "remotes"),
    );
  }
  const transport = REMOTE_TRANSPORTS[remote.type];
  if (!transport || !remote.url) {
    throw refuse(
      `the remote ${index} of ${server.name} is ${remote.type}${remote.url ? "" : " with no URL"}` +
        "; Lass connects to streamable-http and sse remotes with a URL",
      `remotes.${index}.type`,
      "must be streamable-http or sse, with a url",
    );
  }
  const context = newContext(server, given);
  const url = resolveInput({ value: remote.url, variables: remote.variables }, {
    key: "url",
    label: "the URL",
    variable: prefixed(context, "url"),
    whole: false,
  }, context) ?? remote.url;
  const headers: Record<string, string> = {};
  for (const header of remote.headers ?? []) {
    const value = resolveInput(header, {
      key: `headers.${header.name}`,
      label: `header ${header.name}`,
      variable: prefixed(context, header.name),
      whole: true,
    }, context);
    if (value !== undefined) headers[header.name] = value;
  }
  const draft: RecordDraft = { transport, url };
  if (Object.keys(headers).length) draft.headers = headers;
  return planOf(draft, context);
}
