/** `POST /api/llm/models`: the models a profile's provider offers, from the vendor's own list endpoint. */
import type { ModelInfo, ModelList } from "../../wire/models.ts";
import type { EnvLookup } from "../config/env_refs.ts";
import type { LlmProfile } from "../../wire/config/schema.ts";
import type { Provider } from "../../wire/config/llm_profile_schema.ts";
import {
  describeHttpStatus,
  describeTimeout,
  describeUnreachable,
  type FailureContext,
  vendorMessage,
} from "./failures.ts";
import { type Connection, connectionOf, usesAzureDeployments } from "./connection.ts";

/** One list request and how to read its answer. */
interface ListRequest {
  url: string;
  headers: Record<string, string>;
  read(body: unknown): ModelInfo[];
}

type Json = Record<string, unknown>;

const records = (value: unknown): Json[] => Array.isArray(value) ? value as Json[] : [];
const text = (value: unknown) => typeof value === "string" && value !== "" ? value : undefined;
const isoFromSeconds = (value: unknown) =>
  typeof value === "number" ? new Date(value * 1000).toISOString() : undefined;

function bearer(connection: Connection): Record<string, string> {
  return connection.apiKey ? { authorization: `Bearer ${connection.apiKey}` } : {};
}

/** OpenAI and compatible endpoints: `GET /models` → `{data: [{id, created, owned_by}]}`. */
function openAiList(url: string, headers: Record<string, string>): ListRequest {
  return {
    url,
    headers,
    read: (body) =>
      records((body as Json).data).map((m) => ({
        id: String(m.id),
        created: isoFromSeconds(m.created),
        ownedBy: text(m.owned_by),
      })),
  };
}

function listRequest(profile: LlmProfile, connection: Connection): ListRequest {
  const { endpoint, apiKey, headers } = connection;
  switch (profile.provider as Provider) {
    case "hosted-b":
      return {
        url: `${endpoint}/models?limit=1000`,
        headers: { ...headers, "x-api-key": apiKey, "anthropic-version": "2023-06-01" },
        read: (body) =>
          records((body as Json).data).map((m) => ({
            id: String(m.id),
            name: text(m.display_name),
            created: text(m.created_at),
          })),
      };
    case "hosted-c":
      return {
        url: `${endpoint}/models?pageSize=1000`,
        headers: { ...headers, "x-goog-api-key": apiKey },
        read: (body) =>
          records((body as Json).models)
            .filter((m) =>
              records(m.supportedGenerationMethods).length === 0 ||
              (m.supportedGenerationMethods as string[]).includes("generateContent")
            )
            .map((m) => ({
              id: String(m.name).replace(/^models\//, ""),
              name: text(m.displayName),
            })),
      };
    case "cloud-d": {
      // Deployments are what a cloud-d profile's `model` names.
      const version = usesAzureDeployments(profile) ? profile.apiVersion : "2022-12-01";
      return {
        url: `${endpoint}/deployments?api-version=${version}`,
        headers: { ...headers, "api-key": apiKey },
        read: (body) =>
          records((body as Json).data).map((m) => ({
            id: String(m.id),
            name: text(m.model),
            created: isoFromSeconds(m.created_at),
          })),
      };
    }
    case "local-e":
      return {
        url: `${endpoint}/tags`,
        headers,
        read: (body) =>
          records((body as Json).models).map((m) => ({
            id: String(m.name ?? m.model),
            created: text(m.modified_at),
            size: typeof m.size === "number" ? m.size : undefined,
          })),
      };
    default:
      return openAiList(`${endpoint}/models`, { ...headers, ...bearer(connection) });
  }
}

/** Drops undefined fields so the JSON stays small. */
function compact(model: ModelInfo): ModelInfo {
  return Object.fromEntries(Object.entries(model).filter(([, v]) => v !== undefined)) as ModelInfo;
}

/** Lists the models of a profile's provider; never throws. */
export async function listModels(
  profile: LlmProfile,
  env: EnvLookup,
  options: { timeoutMs?: number } = {},
): Promise<ModelList> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const connection = connectionOf(profile, env);
  if (connection.demo) {
    return { models: [{ id: profile.model, name: "Demo model (scripted, no API key)" }] };
  }
  if (connection.problem) return { models: [], error: connection.problem };
  const context: FailureContext = {
    provider: profile.provider,
    endpoint: connection.shownEndpoint,
    timeoutMs,
    secrets: connection.secrets,
  };
  const request = listRequest(profile, connection);
  const deadline = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(request.url, { headers: request.headers, signal: deadline });
  } catch {
    return {
      models: [],
      error: deadline.aborted ? describeTimeout(context) : describeUnreachable(context),
    };
  }
  const body = await response.text().catch(() => "");
  if (!response.ok) {
    return { models: [], error: describeHttpStatus(response.status, vendorMessage(body), context) };
  }
  try {
    const models = request.read(JSON.parse(body)).map(compact);
    return { models: models.sort((a, b) => a.id.localeCompare(b.id)) };
  } catch {
    return { models: [], error: `the model list from ${connection.shownEndpoint} is not JSON` };
  }
}
