/** The settings pages: one per record kind plus the raw config, at `/settings/<section>[/<id>]`. */
import type { ComponentType } from "preact";
import { onLink } from "../sidebar.tsx";
import { bootError, bootstrap } from "../state.ts";
import { AgentsSection } from "./agents.tsx";
import { CatalogsSection } from "./catalogs.tsx";
import { ModelsSection } from "./models.tsx";
import { RawConfigSection } from "./raw.tsx";
import { ServersSection } from "./servers.tsx";
import { SkillsSection } from "./skills.tsx";
import type { SectionProps } from "./types.ts";
import { WorkspacesSection } from "./workspaces.tsx";

const SECTIONS: [slug: string, label: string, ComponentType<SectionProps>][] = [
  ["models", "Models", ModelsSection],
  ["servers", "Tool servers", ServersSection],
  ["skills", "Skills", SkillsSection],
  ["agents", "Agents", AgentsSection],
  ["catalogs", "Catalogs", CatalogsSection],
  ["workspaces", "Workspaces", WorkspacesSection],
  ["config", "Raw config", RawConfigSection],
];

/** The settings page for `path`. */
export default function SettingsPage({ path }: { path: string }) {
  const [, , slug = "models", id] = path.split("/").map(decodeURIComponent);
  const section = SECTIONS.find(([known]) => known === slug);
  return (
    <div class="settings">
      <h1>Settings</h1>
      <nav class="tabs" aria-label="Settings sections">
        {SECTIONS.map(([known, label]) => {
          const href = `/settings/${known}`;
          return (
            <a
              key={known}
              href={href}
              aria-current={known === slug ? "page" : undefined}
              onClick={(event) => onLink(event, href)}
            >
              {label}
            </a>
          );
        })}
      </nav>
      {bootError.value ? <p class="error" role="alert">{bootError.value}</p> : null}
      {!bootstrap.value ? <p class="loading">Loading…</p> : section
        ? (() => {
          const Section = section[2];
          return <Section key={slug} selected={id || undefined} />;
        })()
        : <p class="error" role="alert">There is no settings section "{slug}".</p>}
    </div>
  );
}
