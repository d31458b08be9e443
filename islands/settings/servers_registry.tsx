/**
 * Settings → Tool servers → Add from registry: search the MCP Registry (through Lass), pick a
 * server, then a version and one of its packages or remotes in {@link RegistryServerView}.
 */
import { useModalWhileOpen } from "../modal.ts";
import { useSignal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import type { RegistryEntry, RegistryServerPage } from "../../wire/registry.ts";
import { describeError } from "../state.ts";
import { type RegistryAdded, registryApi } from "./registry_api.ts";
import { RegistryServerView } from "./registry_server.tsx";

/** The "Add from registry" button and its dialog. */
export function RegistryServers({ onAdded }: { onAdded: (added: RegistryAdded) => void }) {
  const open = useSignal(false);
  const dialog = useModalWhileOpen(open);
  return (
    <>
      <button type="button" aria-haspopup="dialog" onClick={() => open.value = true}>
        Add from registry…
      </button>
      <dialog
        ref={dialog}
        class="import-dialog registry-dialog"
        aria-labelledby="registry-heading"
        onClose={() => open.value = false}
      >
        {open.value
          ? (
            <RegistryForm
              onClose={() => open.value = false}
              onAdded={(added) => {
                open.value = false;
                onAdded(added);
              }}
            />
          )
          : null}
      </dialog>
    </>
  );
}

interface RegistryFormProps {
  onClose: () => void;
  onAdded: (added: RegistryAdded) => void;
}

function RegistryForm({ onClose, onAdded }: RegistryFormProps) {
  const query = useSignal("");
  const busy = useSignal(false);
  const failure = useSignal<string | null>(null);
  const page = useSignal<RegistryServerPage | null>(null);
  const results = useSignal<RegistryEntry[]>([]);
  const chosen = useSignal<RegistryEntry | null>(null);
  /** The latest search: an earlier one that answers late is dropped. */
  const latest = useRef(0);
  const search = async (cursor?: string) => {
    const asked = ++latest.current;
    busy.value = true;
    failure.value = null;
    try {
      const answer = await registryApi.search(query.value, cursor);
      if (asked !== latest.current) return;
      page.value = answer;
      results.value = cursor ? [...results.value, ...answer.servers] : answer.servers;
    } catch (error) {
      if (asked === latest.current) failure.value = describeError(error);
    } finally {
      if (asked === latest.current) busy.value = false;
    }
  };
  useEffect(() => {
    search();
  }, []);
  return (
    <div class="import-form registry-form">
      <header class="dialog-head">
        <h2 id="registry-heading">Add from the MCP Registry</h2>
        <span class="spacer" />
        <button type="button" class="icon" aria-label="Close" onClick={onClose}>✕</button>
      </header>
      {chosen.value
        ? (
          <RegistryServerView
            entry={chosen.value}
            onBack={() => chosen.value = null}
            onAdded={onAdded}
          />
        )
        : (
          <>
            <form
              class="import-controls"
              role="search"
              onSubmit={(event) => {
                event.preventDefault();
                search();
              }}
            >
              <input
                type="search"
                aria-label="Search the registry"
                placeholder="Name or description, e.g. filesystem"
                value={query.value}
                onInput={(event) => query.value = event.currentTarget.value}
              />
              <button type="submit" class="primary" disabled={busy.value}>Search</button>
            </form>
            {page.value
              ? <p class="hint">Servers of {page.value.registryUrl}, latest versions.</p>
              : null}
            {failure.value ? <p class="error" role="alert">{failure.value}</p> : null}
            <ResultList results={results.value} onPick={(entry) => chosen.value = entry} />
            {page.value && results.value.length === 0 && !busy.value
              ? <p role="status">No server matches “{query.value}”.</p>
              : null}
            {page.value?.nextCursor
              ? (
                <button
                  type="button"
                  disabled={busy.value}
                  onClick={() => search(page.value?.nextCursor)}
                >
                  More servers
                </button>
              )
              : null}
          </>
        )}
    </div>
  );
}

/** What a server offers, in short: `npm, pypi · remote`. */
function offers(entry: RegistryEntry): string {
  const types = (entry.server.packages ?? []).map((pkg) => pkg.registryType);
  const remotes = (entry.server.remotes ?? []).length;
  const parts = [...new Set(types)];
  if (remotes) parts.push(remotes === 1 ? "remote" : `${remotes} remotes`);
  return parts.join(", ") || "nothing to run";
}

function ResultList(
  { results, onPick }: { results: RegistryEntry[]; onPick: (entry: RegistryEntry) => void },
) {
  if (results.length === 0) return null;
  return (
    <ul class="import-rows registry-results" aria-label="Registry servers">
      {results.map((entry) => (
        <li key={`${entry.server.name}@${entry.server.version}`} class="import-row registry-row">
          <div class="registry-row-text">
            <strong>{entry.server.title ?? entry.server.name.split("/").at(-1)}</strong>{" "}
            <span class="hint">
              <code>{entry.server.name}</code> · {entry.server.version} · {offers(entry)}
            </span>
            {entry.server.description ? <p>{entry.server.description}</p> : null}
          </div>
          <button
            type="button"
            aria-label={`Choose ${entry.server.name}`}
            onClick={() =>
              onPick(entry)}
          >
            Choose
          </button>
        </li>
      ))}
    </ul>
  );
}
