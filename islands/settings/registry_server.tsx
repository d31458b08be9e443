/**
 * One registry server in the Add from registry dialog: its versions, its packages and remotes,
 * the record the chosen one makes (a preview from Lass), its inputs, the environment variables to
 * set, and Add.
 */
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type {
  RegistryAddResult,
  RegistryEntry,
  RegistryInputNeed,
  RegistryPackage,
  RegistryTransport,
} from "../../wire/registry.ts";
import { describeError, loadBootstrap } from "../state.ts";
import { commandLineOf } from "./command_line.ts";
import { type RegistryAdded, registryApi } from "./registry_api.ts";

/** `package:0` or `remote:1`. */
type OptionKey = `${"package" | "remote"}:${number}`;

function optionsOf(entry: RegistryEntry): OptionKey[] {
  return [
    ...(entry.server.packages ?? []).map((_, i) => `package:${i}` as OptionKey),
    ...(entry.server.remotes ?? []).map((_, i) => `remote:${i}` as OptionKey),
  ];
}

function names(items: { name: string; isSecret?: boolean }[] | undefined): string {
  return (items ?? []).map((item) => item.isSecret ? `${item.name} (secret)` : item.name)
    .join(", ");
}

function packageWords(pkg: RegistryPackage): string {
  const parts = [`${pkg.registryType} ${pkg.identifier}${pkg.version ? ` ${pkg.version}` : ""}`];
  if (pkg.runtimeHint) parts.push(`runtime ${pkg.runtimeHint}`);
  const args = (pkg.runtimeArguments?.length ?? 0) + (pkg.packageArguments?.length ?? 0);
  if (args) parts.push(`${args} argument${args === 1 ? "" : "s"}`);
  if (pkg.environmentVariables?.length) parts.push(`env ${names(pkg.environmentVariables)}`);
  return parts.join(" · ");
}

function remoteWords(remote: RegistryTransport): string {
  const parts = [`${remote.type} ${remote.url ?? ""}`];
  if (remote.headers?.length) parts.push(`headers ${names(remote.headers)}`);
  return parts.join(" · ");
}

function optionWords(entry: RegistryEntry, key: OptionKey): string {
  const [kind, index] = key.split(":");
  return kind === "package"
    ? packageWords(entry.server.packages![Number(index)])
    : remoteWords(entry.server.remotes![Number(index)]);
}

/** What the record runs or reaches, in one line. */
function targetOf(server: Record<string, unknown>): string {
  return server.transport === "stdio"
    ? commandLineOf(server.command, server.args)
    : String(server.url ?? "");
}

interface ViewProps {
  entry: RegistryEntry;
  onBack: () => void;
  onAdded: (added: RegistryAdded) => void;
}

/** The chosen server: pick a version and a package or remote, fill in inputs, add. */
export function RegistryServerView({ entry, onBack, onAdded }: ViewProps) {
  const versions = useSignal<RegistryEntry[]>([entry]);
  const version = useSignal(entry.server.version ?? "latest");
  const option = useSignal<OptionKey | null>(optionsOf(entry)[0] ?? null);
  const inputs = useSignal<Record<string, string>>({});
  const preview = useSignal<RegistryAddResult | null>(null);
  const failure = useSignal<string | null>(null);
  const busy = useSignal(false);
  const current = versions.value.find((candidate) => candidate.server.version === version.value) ??
    entry;
  useEffect(() => {
    registryApi.versions(entry.server.name).then((answer) => {
      if (answer.versions.length) versions.value = answer.versions;
    }).catch((error) => failure.value = describeError(error));
  }, [entry.server.name]);
  const body = (extra: { preview?: boolean }) => {
    const [kind, index] = option.value!.split(":");
    const given = Object.fromEntries(Object.entries(inputs.value).filter(([, v]) => v !== ""));
    return {
      name: entry.server.name,
      version: version.value,
      [kind]: Number(index),
      ...(Object.keys(given).length && { inputs: given }),
      ...extra,
    };
  };
  /** The latest preview asked for: an earlier one that answers late is dropped. */
  const latest = useRef(0);
  const refresh = async () => {
    if (!option.value) return;
    const asked = ++latest.current;
    failure.value = null;
    try {
      const answer = await registryApi.add(body({ preview: true }));
      if (asked === latest.current) preview.value = answer;
    } catch (error) {
      if (asked !== latest.current) return;
      preview.value = null;
      failure.value = describeError(error);
    }
  };
  useEffect(() => {
    refresh();
  }, [version.value, option.value]);
  const add = async () => {
    busy.value = true;
    failure.value = null;
    try {
      const added = await registryApi.add(body({}));
      await loadBootstrap();
      onAdded({ id: String(added.server.id), envVariables: added.envVariables });
    } catch (error) {
      failure.value = describeError(error);
    } finally {
      busy.value = false;
    }
  };
  const choices = optionsOf(current);
  return (
    <section class="registry-server" aria-label={`Server ${entry.server.name}`}>
      <button type="button" class="link" onClick={onBack}>← All servers</button>
      <h3>{entry.server.title ?? entry.server.name}</h3>
      {entry.server.description ? <p>{entry.server.description}</p> : null}
      <label class="registry-version">
        Version{" "}
        <select
          value={version.value}
          onChange={(event) => {
            version.value = event.currentTarget.value;
            inputs.value = {};
          }}
        >
          {versions.value.map((candidate) => (
            <option key={candidate.server.version} value={candidate.server.version}>
              {candidate.server.version}
              {candidate.official?.isLatest ? " (latest)" : ""}
              {candidate.official?.status && candidate.official.status !== "active"
                ? ` (${candidate.official.status})`
                : ""}
            </option>
          ))}
        </select>
      </label>
      {choices.length === 0
        ? <p class="error">This version has no package or remote that a client can run.</p>
        : (
          <fieldset class="registry-options">
            <legend>Run it as</legend>
            {choices.map((key) => (
              <label key={key} class="registry-option">
                <input
                  type="radio"
                  name="registry-option"
                  checked={option.value === key}
                  onChange={() => {
                    option.value = key;
                    inputs.value = {};
                  }}
                />{" "}
                <code>{optionWords(current, key)}</code>
              </label>
            ))}
          </fieldset>
        )}
      {failure.value ? <p class="error" role="alert">{failure.value}</p> : null}
      {preview.value
        ? (
          <PreviewView
            preview={preview.value}
            inputs={inputs.value}
            onInput={(key, value) => inputs.value = { ...inputs.value, [key]: value }}
            onCommit={refresh}
          />
        )
        : null}
      <div class="form-actions">
        <button
          type="button"
          class="primary"
          disabled={busy.value || !preview.value}
          onClick={add}
        >
          {busy.value ? "Adding…" : "Add"}
        </button>
      </div>
    </section>
  );
}

interface PreviewProps {
  preview: RegistryAddResult;
  inputs: Record<string, string>;
  onInput: (key: string, value: string) => void;
  onCommit: () => void;
}

/** The record it makes, its inputs, and the environment variables to set. */
function PreviewView({ preview, inputs, onInput, onCommit }: PreviewProps) {
  const { server, envVariables, notes } = preview;
  const editable = preview.inputs.filter((need) => !need.isSecret);
  return (
    <div class="registry-preview" aria-label="The record">
      <p>
        Adds <strong>{String(server.id)}</strong>: {String(server.transport)} ·{" "}
        <code class="registry-target">{targetOf(server)}</code>
      </p>
      {editable.length > 0
        ? (
          <div class="registry-inputs">
            {editable.map((need) => (
              <InputField
                key={need.key}
                need={need}
                value={inputs[need.key] ?? ""}
                onInput={(value) => onInput(need.key, value)}
                onCommit={onCommit}
              />
            ))}
          </div>
        )
        : null}
      {envVariables.length > 0
        ? (
          <div class="import-warnings registry-env" role="note">
            <h3>Environment variables to set</h3>
            <p>
              Set {envVariables.map((name, i) => (
                <span key={name}>
                  {i > 0 ? ", " : ""}
                  <code>{name}</code>
                </span>
              ))} in Lass's environment before connecting: the record reads{" "}
              {envVariables.length === 1 ? "it" : "them"}{" "}
              from there, and secrets are never written into the config.
            </p>
          </div>
        )
        : null}
      {notes.length > 0
        ? (
          <ul class="registry-notes">
            {notes.map((note) => <li key={note}>{note}</li>)}
          </ul>
        )
        : null}
    </div>
  );
}

interface InputFieldProps {
  need: RegistryInputNeed;
  value: string;
  onInput: (value: string) => void;
  onCommit: () => void;
}

function InputField({ need, value, onInput, onCommit }: InputFieldProps) {
  const id = `registry-input-${need.key.replace(/[^A-Za-z0-9_-]/g, "-")}`;
  const label = `${need.label}${need.isRequired ? " (required)" : ""}`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {need.choices
        ? (
          <select
            id={id}
            value={value}
            onChange={(event) => {
              onInput(event.currentTarget.value);
              onCommit();
            }}
          >
            <option value="">{need.default ? `Default (${need.default})` : "None"}</option>
            {need.choices.map((choice) => <option key={choice} value={choice}>{choice}</option>)}
          </select>
        )
        : (
          <input
            id={id}
            type="text"
            value={value}
            placeholder={need.default ?? (need.variable ? `\${${need.variable}}` : "")}
            onInput={(event) => onInput(event.currentTarget.value)}
            onChange={onCommit}
          />
        )}
      {need.description ? <p class="hint">{need.description}</p> : null}
    </div>
  );
}
