/**
 * The Resources tab: the server's resources and resource templates; a resource is read as it
 * is, a template after its variables are filled in. Contents show as text, pretty JSON, images,
 * or other blobs as their size and a download.
 */
import { JsonBlock } from "../copy_button.tsx";
import { RichText } from "../rich_text.tsx";
import { useSignal } from "@preact/signals";
import { takeEdit, waitingEdit } from "./edit_request.ts";
import { formatBytes, ResourceContentsView } from "./content.tsx";
import { Block, CallError, type CallState, ItemPicker, useCall } from "./panel.tsx";
import { mcpApi, type ResourceResult } from "../tool_servers.ts";
import { CompletionInput } from "./completion_input.tsx";
import { SubscribeControl } from "./subscription.tsx";
import { expandTemplate, templateVariables } from "./uri_template.ts";
import type { ToolServerState } from "../../wire/tool_servers.ts";

type Resource = ToolServerState["resources"][number];
type Template = ToolServerState["resourceTemplates"][number];

function Contents({ state }: { state: CallState<ResourceResult> }) {
  if (state.state === "failed") return <CallError error={state.error} details={state.details} />;
  if (state.state !== "done") return null;
  return (
    <Block title="Contents" class="read-result">
      {state.value.contents.length === 0 ? <p class="hint">No contents.</p> : null}
      {state.value.contents.map((contents, i) => (
        <ResourceContentsView key={i} contents={contents} />
      ))}
      <details class="raw">
        <summary>Raw result</summary>
        <JsonBlock value={state.value} />
      </details>
    </Block>
  );
}

function About({ item }: { item: Resource | Template }) {
  const size = (item as Resource).size;
  return (
    <>
      <header class="item-head">
        <h2>{item.title ?? item.name}</h2>
        {item.title ? <code>{item.name}</code> : null}
      </header>
      {item.description
        ? (
          <div class="item-description">
            <RichText text={item.description} />
          </div>
        )
        : null}
      <p class="hints">
        {item.mimeType ? <span class="badge">{item.mimeType}</span> : null}
        {typeof size === "number" ? <span class="badge">{formatBytes(size)}</span> : null}
      </p>
    </>
  );
}

function ResourcePanel({ state, resource }: { state: ToolServerState; resource: Resource }) {
  const serverId = state.id;
  const [read, run] = useCall<ResourceResult>();
  const reread = () => void run(() => mcpApi.resource(serverId, resource.uri));
  return (
    <article class="resource-panel" aria-label={`Resource ${resource.uri}`}>
      <About item={resource} />
      <p class="uri-line">
        <code>{resource.uri}</code>
        <button
          type="button"
          class="primary"
          disabled={read.value.state === "running"}
          onClick={reread}
        >
          {read.value.state === "running" ? "Reading…" : "Read"}
        </button>
        <SubscribeControl state={state} uri={resource.uri} onUpdated={reread} />
      </p>
      <Contents state={read.value} />
    </article>
  );
}

function TemplatePanel({ state, template }: { state: ToolServerState; template: Template }) {
  const serverId = state.id;
  const completes = state.capabilities?.completions !== undefined;
  const values = useSignal<Record<string, string>>({});
  const [read, run] = useCall<ResourceResult>();
  const variables = templateVariables(template.uriTemplate);
  const idPrefix = `template-${serverId}-${template.name}`.replace(/[^\w-]/g, "_");
  // A field left empty leaves its variable out (an optional query parameter disappears).
  const filled = Object.fromEntries(Object.entries(values.value).filter(([, v]) => v !== ""));
  const uri = expandTemplate(template.uriTemplate, filled);
  const submit = (event: Event) => {
    event.preventDefault();
    void run(() => mcpApi.resource(serverId, uri));
  };
  return (
    <article class="resource-panel" aria-label={`Template ${template.uriTemplate}`}>
      <About item={template} />
      <form class="tool-form" onSubmit={submit} aria-label={`Variables of ${template.uriTemplate}`}>
        <p class="uri-line">
          <code>{template.uriTemplate}</code>
        </p>
        {variables.map(({ name, optional }) => {
          const id = `${idPrefix}-${name.replace(/[^\w-]/g, "_")}`;
          return (
            <div key={name} class="field">
              <label for={id}>{name}</label>
              {completes
                ? (
                  <CompletionInput
                    serverId={serverId}
                    reference={{ type: "ref/resource", uri: template.uriTemplate }}
                    name={name}
                    id={id}
                    required={!optional}
                    value={values.value[name] ?? ""}
                    context={values.value}
                    onValue={(value) => values.value = { ...values.peek(), [name]: value }}
                  />
                )
                : (
                  <input
                    id={id}
                    required={!optional}
                    value={values.value[name] ?? ""}
                    onInput={(event) =>
                      values.value = { ...values.peek(), [name]: event.currentTarget.value }}
                  />
                )}
            </div>
          );
        })}
        <p class="uri-line">
          URI{" "}
          <output
            for={variables.map(({ name }) => `${idPrefix}-${name.replace(/[^\w-]/g, "_")}`).join(
              " ",
            )}
          >
            {uri}
          </output>
        </p>
        <div class="actions">
          <button type="submit" class="primary" disabled={read.value.state === "running"}>
            {read.value.state === "running" ? "Reading…" : "Read"}
          </button>
        </div>
      </form>
      <Contents state={read.value} />
    </article>
  );
}

/** The resources and resource templates of a connected server. */
export function ResourcesTab({ state }: { state: ToolServerState }) {
  const first = state.resources[0]
    ? `r:${state.resources[0].uri}`
    : state.resourceTemplates[0]
    ? `t:${state.resourceTemplates[0].uriTemplate}`
    : null;
  const selected = useSignal<string | null>(first);
  // A past read from History ("Edit and send"): its resource is picked.
  const edit = waitingEdit(state.id, "resource");
  if (edit) {
    if (state.resources.some((r) => r.uri === edit.uri)) selected.value = `r:${edit.uri}`;
    takeEdit();
  }
  const key = selected.value ?? "";
  const resource = state.resources.find((r) => `r:${r.uri}` === key);
  const template = state.resourceTemplates.find((t) => `t:${t.uriTemplate}` === key);
  if (first === null) return <p class="hint">This server offers no resources.</p>;
  const pick = (chosen: string) => selected.value = chosen;
  return (
    <div class="inspector-split">
      <div class="pickers-column">
        {state.resources.length > 0
          ? (
            <>
              <h3 class="picker-title">Resources</h3>
              <ItemPicker
                label="Resources"
                items={state.resources.map((r) => ({
                  key: `r:${r.uri}`,
                  label: r.uri,
                  detail: r.title ?? r.name,
                }))}
                selected={key}
                onSelect={pick}
              />
            </>
          )
          : null}
        {state.resourceTemplates.length > 0
          ? (
            <>
              <h3 class="picker-title">Templates</h3>
              <ItemPicker
                label="Resource templates"
                items={state.resourceTemplates.map((t) => ({
                  key: `t:${t.uriTemplate}`,
                  label: t.uriTemplate,
                  detail: t.title ?? t.name,
                }))}
                selected={key}
                onSelect={pick}
              />
            </>
          )
          : null}
      </div>
      {resource ? <ResourcePanel key={key} state={state} resource={resource} /> : null}
      {template ? <TemplatePanel key={key} state={state} template={template} /> : null}
    </div>
  );
}
