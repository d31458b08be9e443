/**
 * The reference problems of a config: duplicate ids and ids that no record has, each at its
 * dotted path. It reads any JSON (a config that also fails its schema gets them too), so
 * `PUT /api/config` lists reference and schema problems together.
 */
import type { ErrorDetail } from "../errors.ts";

type Json = Record<string, unknown>;

const SECTIONS = ["llms", "mcpServers", "skills", "agents", "catalogs", "workspaces"] as const;
type Section = typeof SECTIONS[number];

function recordsOf(config: Json, section: Section): unknown[] {
  const value = config[section];
  return Array.isArray(value) ? value : [];
}

function idOf(record: unknown): string | undefined {
  const id = (record as Json | null)?.id;
  return typeof id === "string" ? id : undefined;
}

/** Duplicate ids and references to ids that no record has, each at its dotted path. */
export function referenceProblems(config: Json): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const ids = {} as Record<Section, Set<string>>;
  for (const section of SECTIONS) {
    const seen = new Map<string, number>();
    recordsOf(config, section).forEach((record, index) => {
      const id = idOf(record);
      if (id === undefined) return;
      const first = seen.get(id);
      if (first === undefined) seen.set(id, index);
      else {
        problems.push({
          path: `${section}.${index}.id`,
          message: `duplicate id "${id}" (first used at ${section}.${first})`,
        });
      }
    });
    ids[section] = new Set(seen.keys());
  }
  const expect = (section: Section, id: unknown, path: string) => {
    if (typeof id === "string" && !ids[section].has(id)) {
      problems.push({ path, message: `no ${section} record has id "${id}"` });
    }
  };
  const each = (list: unknown, section: Section, path: string) => {
    if (Array.isArray(list)) list.forEach((id, i) => expect(section, id, `${path}.${i}`));
  };
  recordsOf(config, "workspaces").forEach((record, index) => {
    if (!record || typeof record !== "object") return;
    const workspace = record as Json;
    const at = `workspaces.${index}`;
    expect("llms", workspace.llmId, `${at}.llmId`);
    expect("agents", workspace.agentId, `${at}.agentId`);
    each(workspace.mcpServerIds, "mcpServers", `${at}.mcpServerIds`);
    each(workspace.skillIds, "skills", `${at}.skillIds`);
    const genui = workspace.generativeUi;
    if (genui && typeof genui === "object") {
      each((genui as Json).catalogIds, "catalogs", `${at}.generativeUi.catalogIds`);
    }
  });
  expect("workspaces", config.activeWorkspaceId, "activeWorkspaceId");
  return problems;
}
