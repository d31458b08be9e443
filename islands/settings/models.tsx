/** Settings: model profiles (`llms[]`), with a provider picker, Test and List models. */
import { ListTest } from "./checks.tsx";
import { CheckField, JsonField, LinesField, SelectField, TextField } from "./fields.tsx";
import { MoreErrors, type RecordDraft, useUniqueId } from "./form.tsx";
import { type EditorProps, RecordSection } from "./kit.tsx";
import {
  blankProfile,
  isDetected,
  presetOf,
  presets,
  referencedVariable,
  testProfile,
  withProvider,
} from "./models_api.ts";
import { probeSentence, ProfileChecksPanel, useProfileChecks } from "./models_probe.tsx";
import type { SectionProps } from "./types.ts";

/** What the API key field says: where a key comes from when it is empty, and whether it is set. */
function keyHint(provider: string, apiKey: unknown) {
  const preset = presetOf(provider);
  const keyEnv = preset?.keyEnv ?? [];
  const referenced = referencedVariable(apiKey);
  const parts: string[] = [];
  if (referenced) {
    const known = preset?.envKeys.includes(referenced);
    parts.push(
      known
        ? `Reads ${referenced}, which is ${
          isDetected(referenced) ? "set" : "not set"
        } in Lass's environment.`
        : `Reads ${referenced} from Lass's environment when the model is used.`,
    );
  } else if (keyEnv.length > 0) {
    const states = keyEnv.map((name) => `${name} (${isDetected(name) ? "set" : "not set"})`);
    parts.push(`Leave empty to use ${states.join(", then ")} from Lass's environment.`);
  } else if (provider === "local-e") {
    parts.push("Ollama needs no key.");
  } else {
    parts.push("Sent as a bearer token when given.");
  }
  parts.push(
    "env:NAME or ${NAME} reads a variable when the model is used, so the key stays out of the file.",
  );
  return parts.join(" ");
}

function baseUrlHint(provider: string): string {
  const preset = presetOf(provider);
  if (provider === "compatible-api") {
    return "Required: the endpoint's /v1 URL. service:demo is the built-in demo model (no key, no network).";
  }
  if (provider === "cloud-d") {
    return "Optional: overrides https://<resource name>.openai.azure.com/openai (a proxy or gateway).";
  }
  const env = preset?.envKeys.find((name) => /BASE_URL|HOST/.test(name));
  const from = env ? `${env} if set (${isDetected(env) ? "it is" : "it is not"}), else ` : "";
  return `Optional. Empty uses ${from}${preset?.baseURL ?? "the provider's default"}.`;
}

function Editor({ draft }: EditorProps) {
  const checks = useProfileChecks();
  const listId = useUniqueId("models");
  const provider = String(draft.value.provider ?? "");
  const preset = presetOf(provider);
  const options = presets().map(([id, known]): [string, string] => [id, known.label]);
  if (provider !== "" && !presetOf(provider)) options.push([provider, provider]);
  return (
    <div class="model-editor">
      <MoreErrors errors={checks.refusal.errors.value}>
        <TextField draft={draft} name="name" label="Name" required />
        <SelectField
          draft={draft}
          name="provider"
          label="Provider"
          options={options}
          onChange={(value) => draft.value = withProvider(draft.peek(), value)}
        />
        <TextField
          draft={draft}
          name="model"
          label={provider === "cloud-d" ? "Model (deployment name)" : "Model"}
          required
          list={listId}
          hint={preset?.models?.length
            ? `Suggestions: ${preset.models.join(", ")}. List models asks the provider.`
            : "List models asks the endpoint for its models."}
        />
        <datalist id={listId}>
          {(preset?.models ?? []).map((model) => <option key={model} value={model} />)}
        </datalist>
        <TextField
          draft={draft}
          name="apiKey"
          label="API key"
          type="password"
          placeholder={preset?.keyEnv?.[0] ? `env:${preset.keyEnv[0]}` : undefined}
          hint={keyHint(provider, draft.value.apiKey)}
        />
        <TextField
          draft={draft}
          name="baseURL"
          label="Base URL"
          required={provider === "compatible-api"}
          placeholder={preset?.baseURL ??
            (provider === "compatible-api" ? "http://127.0.0.1:1234/v1" : undefined)}
          hint={baseUrlHint(provider)}
        />
        {provider === "cloud-d"
          ? (
            <>
              <TextField
                draft={draft}
                name="resourceName"
                label="Resource name"
                placeholder="env:AZURE_RESOURCE_NAME"
                hint={`The Azure resource (or a base URL above). AZURE_RESOURCE_NAME is ${
                  isDetected("AZURE_RESOURCE_NAME") ? "set" : "not set"
                }.`}
              />
              <TextField
                draft={draft}
                name="apiVersion"
                label="API version"
                placeholder="v1"
                hint="Empty: the v1 API. A date such as 2024-10-21: the classic deployment URLs."
              />
            </>
          )
          : null}
        {provider === "hosted-a" || provider === "cloud-d"
          ? (
            <CheckField
              draft={draft}
              name="useChatApi"
              label="Use Chat Completions instead of the Responses API"
            />
          )
          : null}
        <details class="advanced">
          <summary>More settings</summary>
          <LinesField
            draft={draft}
            name="headers"
            label="Headers"
            shape="map"
            hint="NAME=value per line, sent with every request; values may be env:NAME or contain ${NAME}."
          />
          <TextField
            draft={draft}
            name="temperature"
            label="Temperature"
            type="number"
            hint="0 to 2; empty: the provider's default."
          />
          <TextField
            draft={draft}
            name="maxOutputTokens"
            label="Max output tokens"
            type="number"
            hint="1 or more; empty: the provider's default."
          />
          <JsonField
            draft={draft}
            name="providerOptions"
            label="Provider options (JSON)"
            rows={4}
            hint='Passed to the model SDK as they are, e.g. {"openai": {"reasoningEffort": "low"}}.'
          />
        </details>
      </MoreErrors>
      <ProfileChecksPanel checks={checks} draft={draft} />
    </div>
  );
}

function summary(record: RecordDraft) {
  const label = presetOf(record.provider)?.label ?? String(record.provider ?? "");
  const baseURL = typeof record.baseURL === "string" ? record.baseURL : "";
  return (
    <span>
      {label} · <code>{String(record.model ?? "")}</code>
      {baseURL === "service:demo" ? " · built-in demo" : baseURL ? ` · ${baseURL}` : ""}
    </span>
  );
}

/** The models section. */
export function ModelsSection({ selected }: SectionProps) {
  return (
    <RecordSection
      section="llms"
      slug="models"
      title="Models"
      noun="model profile"
      selected={selected}
      intro={
        <p>
          A model profile is a provider, a model and how to reach it. Workspaces pick one; chat can
          switch per turn. Keys are best given as env:NAME.
        </p>
      }
      blank={blankProfile}
      summary={summary}
      actions={(record) => <ListTest record={record} test={testProfile} sentence={probeSentence} />}
      Editor={Editor}
    />
  );
}
