/** The model of a `graph-a` export: a LangChain chat-model class per provider kind, set up as Lass sets up the AI SDK. */
import { usesAzureDeployments } from "../llm/connection.ts";
import { isLiteral, type Piece } from "./_env.ts";
import { PLACEHOLDER_BASE_URL, PLACEHOLDER_ENV, type WorkspacePlan } from "./_plan.ts";
import { expr, objectLiteral, OLLAMA_HELPER, str, valueMap } from "./_ts.ts";
import type { PinnedPackage } from "./versions.ts";

/** A chat-model class of LangChain and the package it comes from. */
export interface ChatClass {
  name: string;
  pkg: PinnedPackage;
}

const OPENAI: ChatClass = { name: "ChatOpenAI", pkg: "@langchain/openai" };

/** The model part of the file: the chat-model class, the `model` constant and helpers. */
export interface ModelCode {
  chatClass: ChatClass;
  code: string;
  helpers: string[];
}

type Entry = [string, string];

/** A URL expression with a path suffix (such as `/v1`) removed, at export time when it is literal. */
function withoutSuffix(pieces: Piece[], suffix: RegExp): string {
  if (isLiteral(pieces)) return str(pieces.join("").replace(/\/+$/, "").replace(suffix, ""));
  return `${expr(pieces)}.replace(/\\/+$/, "").replace(${String(suffix)}, "")`;
}

/** A URL expression with a path appended. */
function joined(pieces: Piece[], path: string): string {
  const trimmed = pieces.map((piece, index) =>
    index === pieces.length - 1 && typeof piece === "string" ? piece.replace(/\/+$/, "") : piece
  );
  return expr([...trimmed, path]);
}

function apiKeyExpr(plan: WorkspacePlan): string | undefined {
  const { apiKey, apiKeyEnv } = plan.model;
  if (apiKey) return expr(apiKey);
  if (apiKeyEnv.length === 0) return undefined;
  return apiKeyEnv.map((name) => `env(${str(name)})`).join(" || ");
}

/** Temperature and output limit, under the names a chat class uses. */
function samplingEntries(plan: WorkspacePlan, maxName: string): Entry[] {
  const profile = plan.model.placeholder ? undefined : plan.model.profile;
  const entries: Entry[] = [];
  if (profile?.temperature !== undefined) {
    entries.push(["temperature", String(profile.temperature)]);
  }
  if (profile?.maxOutputTokens !== undefined) {
    entries.push([maxName, String(profile.maxOutputTokens)]);
  }
  return entries;
}

function instance(chatClass: ChatClass, entries: Entry[], comment = ""): ModelCode {
  return {
    chatClass,
    code: `${comment}const model = new ${chatClass.name}(${
      objectLiteral(entries, "", 98 - `const model = new ${chatClass.name}(`.length)
    });`,
    helpers: [],
  };
}

/** `new ChatOpenAI(...)` for OpenAI and OpenAI-compatible endpoints (Azure's v1 API too). */
function openAiCompatible(plan: WorkspacePlan, options: {
  apiKey: string;
  baseURL?: string;
  responses?: boolean;
  comment?: string;
}): ModelCode {
  const configuration: Entry[] = [];
  if (options.baseURL) configuration.push(["baseURL", options.baseURL]);
  if (plan.model.headers.length) {
    configuration.push(["defaultHeaders", valueMap(plan.model.headers, "    ")]);
  }
  const entries: Entry[] = [["model", str(plan.model.model)], ["apiKey", options.apiKey]];
  if (options.responses !== undefined) entries.push(["useResponsesApi", String(options.responses)]);
  entries.push(...samplingEntries(plan, "maxTokens"));
  if (configuration.length) entries.push(["configuration", objectLiteral(configuration, "  ")]);
  return instance(OPENAI, entries, options.comment);
}

/** The `model` constant of a plan: the chat-model class of its provider, set up as Lass does. */
export function modelCode(plan: WorkspacePlan): ModelCode {
  const { model } = plan;
  if (model.placeholder) {
    const code = openAiCompatible(plan, {
      apiKey: `env(${str(PLACEHOLDER_ENV.apiKey)}) || "not-needed"`,
      baseURL: `env(${str(PLACEHOLDER_ENV.baseURL)}) || ${str(PLACEHOLDER_BASE_URL)}`,
      comment: "// Lass's demo model answers only inside Lass: this calls an OpenAI-compatible " +
        `endpoint instead\n// (Ollama, LM Studio, vLLM...). Set ${PLACEHOLDER_ENV.baseURL} and ` +
        `${PLACEHOLDER_ENV.model}.\n`,
    });
    code.code = code.code.replace(
      `model: ${str(model.model)}`,
      `model: env(${str(PLACEHOLDER_ENV.model)}) || ${str(model.model)}`,
    );
    return code;
  }
  const profile = model.profile!;
  const comment = `// Model profile "${profile.name}" (${profile.id}).\n`;
  const apiKey = apiKeyExpr(plan);
  const baseURL = model.baseURL;
  switch (model.provider) {
    case "hosted-a":
      return openAiCompatible(plan, {
        apiKey: apiKey ?? 'env("OPENAI_API_KEY")',
        baseURL: baseURL && expr(baseURL),
        responses: !profile.useChatApi,
        comment,
      });
    case "compatible-api":
      return openAiCompatible(plan, {
        // The OpenAI client needs some key, even for an endpoint that takes none.
        apiKey: apiKey ?? '"not-needed"',
        baseURL: baseURL && expr(baseURL),
        comment,
      });
    case "hosted-b": {
      const entries: Entry[] = [["model", str(model.model)]];
      if (apiKey) entries.push(["apiKey", apiKey]);
      if (baseURL) entries.push(["anthropicApiUrl", withoutSuffix(baseURL, /\/v1$/)]);
      entries.push(...samplingEntries(plan, "maxTokens"));
      if (model.headers.length) {
        const headers = valueMap(model.headers, "    ");
        entries.push(["clientOptions", objectLiteral([["defaultHeaders", headers]], "  ")]);
      }
      return instance({ name: "ChatAnthropic", pkg: "@langchain/anthropic" }, entries, comment);
    }
    case "hosted-c": {
      const entries: Entry[] = [["model", str(model.model)]];
      if (apiKey) entries.push(["apiKey", apiKey]);
      if (baseURL) {
        const tail = baseURL.map((piece) => typeof piece === "string" ? piece : "").join("");
        const version = /\/(v1(?:beta|alpha)?)\/*$/.exec(tail)?.[1] ?? "v1beta";
        entries.push(["baseUrl", withoutSuffix(baseURL, /\/v1(beta|alpha)?$/)]);
        entries.push(["apiVersion", str(version)]);
      }
      entries.push(...samplingEntries(plan, "maxOutputTokens"));
      if (model.headers.length) entries.push(["customHeaders", valueMap(model.headers, "  ")]);
      const chatClass: ChatClass = {
        name: "ChatGoogleGenerativeAI",
        pkg: "@langchain/google-genai",
      };
      return instance(chatClass, entries, comment);
    }
    case "cloud-d": {
      const key = apiKey ?? 'env("AZURE_API_KEY")';
      if (!usesAzureDeployments(profile)) {
        // Azure's v1 API speaks OpenAI's protocol.
        const endpoint = baseURL
          ? joined(baseURL, "/v1")
          : expr(["https://", ...(model.resourceName ?? []), ".openai.azure.com/openai/v1"]);
        return openAiCompatible(plan, {
          apiKey: key,
          baseURL: endpoint,
          responses: !profile.useChatApi,
          comment,
        });
      }
      const entries: Entry[] = [
        ["model", str(model.model)],
        ["azureOpenAIApiKey", key],
        ["azureOpenAIApiDeploymentName", str(model.model)],
        ["azureOpenAIApiVersion", str(profile.apiVersion!)],
      ];
      if (baseURL) entries.push(["azureOpenAIBasePath", joined(baseURL, "/deployments")]);
      else entries.push(["azureOpenAIApiInstanceName", expr(model.resourceName ?? [])]);
      entries.push(...samplingEntries(plan, "maxTokens"));
      if (model.headers.length) {
        const headers = valueMap(model.headers, "    ");
        entries.push(["configuration", objectLiteral([["defaultHeaders", headers]], "  ")]);
      }
      return instance({ name: "AzureChatOpenAI", pkg: "@langchain/openai" }, entries, comment);
    }
    case "local-e": {
      const entries: Entry[] = [
        ["model", str(model.model)],
        ["baseUrl", baseURL ? withoutSuffix(baseURL, /\/api$/) : "ollamaOrigin()"],
      ];
      entries.push(...samplingEntries(plan, "numPredict"));
      if (model.headers.length) entries.push(["headers", valueMap(model.headers, "  ")]);
      const code = instance({ name: "ChatOllama", pkg: "@langchain/ollama" }, entries, comment);
      if (!baseURL) code.helpers.push(OLLAMA_HELPER);
      return code;
    }
  }
}
