/**
 * Where traces go: the config's `telemetry.otlp` (env references resolved), else the standard
 * `OTEL_EXPORTER_OTLP_*` variables, else nowhere (telemetry off).
 */
import type { ServiceConfig } from "../../wire/config/schema.ts";
import { type EnvLookup, resolveEnvRef, resolveEnvRefs } from "../config/env_refs.ts";
import type { TelemetrySettings } from "./types.ts";

/** The path OTLP/HTTP receivers take traces at. */
const TRACES_PATH = "v1/traces";

/** The settings in force, or `undefined` when telemetry is off. */
export function telemetrySettings(
  config: ServiceConfig,
  env: EnvLookup,
): TelemetrySettings | undefined {
  const section = config.telemetry;
  const serviceName = section?.serviceName ?? (env("OTEL_SERVICE_NAME") || "lass");
  if (section?.otlp) {
    const endpoint = resolveEnvRef(section.otlp.endpoint, env).trim();
    if (!endpoint) return undefined;
    return {
      url: tracesUrl(endpoint),
      headers: resolveEnvRefs(section.otlp.headers ?? {}, env),
      protocol: section.otlp.protocol,
      serviceName,
      source: "config",
    };
  }
  if (env("OTEL_SDK_DISABLED")?.trim().toLowerCase() === "true") return undefined;
  const signalUrl = env("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")?.trim();
  const baseUrl = env("OTEL_EXPORTER_OTLP_ENDPOINT")?.trim();
  if (!signalUrl && !baseUrl) return undefined;
  const protocol = env("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") ?? env("OTEL_EXPORTER_OTLP_PROTOCOL");
  return {
    // The signal's own variable is the whole URL; the general one is a base (the OTLP spec).
    url: signalUrl || tracesUrl(baseUrl!),
    headers: {
      ...parseHeaders(env("OTEL_EXPORTER_OTLP_HEADERS")),
      ...parseHeaders(env("OTEL_EXPORTER_OTLP_TRACES_HEADERS")),
    },
    protocol: protocol?.trim() === "http/json" ? "http/json" : "http/protobuf",
    serviceName,
    source: "env",
  };
}

/** An endpoint's traces URL: the endpoint itself when it ends with `/v1/traces`, else that added. */
export function tracesUrl(endpoint: string): string {
  const url = new URL(endpoint);
  if (url.pathname.replace(/\/+$/, "").endsWith(`/${TRACES_PATH}`)) return url.href;
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/${TRACES_PATH}`;
  return url.href;
}

/** `OTEL_EXPORTER_OTLP_HEADERS`: `name=value` pairs, comma separated, values percent-encoded. */
export function parseHeaders(text: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of (text ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    const raw = pair.slice(at + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // Not percent-encoded after all: taken as written.
    }
    if (name) headers[name] = value;
  }
  return headers;
}
