/** The skills of a chat run: a catalog for the system prompt, `load_skill` and `read_skill_file`. */
import { dynamicTool, jsonSchema, type ToolSet } from "ai";
import type { Workspace } from "../../wire/config/schema.ts";
import type { Service } from "../service.ts";
import type { LoadedSkill } from "../skills/skill.ts";
import type { ToolRun } from "./tools.ts";
import type { ToolOrigin } from "./types.ts";

/** The model-visible name of the tool that activates a skill. */
export const LOAD_SKILL_TOOL = "load_skill";
/** The model-visible name of the tool that reads a skill's bundled file. */
export const READ_SKILL_FILE_TOOL = "read_skill_file";
/** The most bytes of one bundled file a model is given: 256 KiB. */
export const MAX_SKILL_FILE_BYTES = 256 * 1024;

/** The skill part of a run: tools, where their names lead, and the catalog for the system prompt. */
export interface SkillTools {
  tools: ToolSet;
  origins: Map<string, ToolOrigin>;
  /** The catalog of enabled skills and how to use them; absent when there are none. */
  instructions?: string;
}

/** Escapes text for the XML-like catalog and wrappers the model reads. */
function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The enabled, usable skills, read again from disk; the first of two with one name wins. */
async function enabledSkills(service: Service, workspace: Workspace): Promise<LoadedSkill[]> {
  const loaded = await Promise.all(workspace.skillIds.map((id) => service.skills.reload(id)));
  const byName = new Map<string, LoadedSkill>();
  for (const skill of loaded) {
    if (skill && skill.errors.length === 0 && !byName.has(skill.name)) {
      byName.set(skill.name, skill);
    }
  }
  return [...byName.values()];
}

/** The system-prompt section: tier 1 of progressive disclosure (names and descriptions only). */
function catalogOf(skills: LoadedSkill[], withFiles: boolean): string {
  const entries = skills.map((skill) =>
    `<skill>\n<name>${escape(skill.name)}</name>\n` +
    `<description>${escape(skill.description)}</description>\n</skill>`
  );
  return [
    "# Skills",
    "",
    "Skills are instructions for particular kinds of tasks. When a task matches a skill's " +
    `description, call the ${LOAD_SKILL_TOOL} tool with the skill's name before you start, then ` +
    "follow the instructions it returns. Load a skill once; it stays in the conversation." +
    (withFiles
      ? " A skill's instructions may refer to its bundled files by relative path (such as " +
        `references/guide.md); read one with ${READ_SKILL_FILE_TOOL} only when you need it.`
      : ""),
    "",
    "<available_skills>",
    ...entries,
    "</available_skills>",
  ].join("\n");
}

/** Tier 2: a skill's body, its folder and the list of its files (not their contents). */
function skillContent(skill: LoadedSkill): string {
  const parts = [`<skill_content name="${escape(skill.name)}">`, skill.body];
  if (skill.root !== undefined) parts.push("", `Skill folder: ${skill.root}`);
  if (skill.files.length > 0) {
    parts.push(
      `Bundled files, relative to the skill folder (read one with ${READ_SKILL_FILE_TOOL}):`,
      "<skill_resources>",
      ...skill.files.map((file) => `<file>${escape(file.path)}</file>`),
      "</skill_resources>",
    );
  }
  parts.push("</skill_content>");
  return parts.join("\n");
}

/** A tool result the model reads; `error` marks it as a failed call. */
function result(text: string, started: number, error = false): ToolRun {
  return {
    model: error ? { type: "error-text", value: text } : { type: "text", value: text },
    isError: error,
    durationMs: Math.round(performance.now() - started),
  };
}

/** The string field of a tool input, if it is one. */
function field(input: unknown, name: string): string | undefined {
  const value = (input as Record<string, unknown> | null)?.[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * The skill tools of a workspace for one chat turn. Each enabled skill is read again from disk
 * (so an edited SKILL.md counts) and skills with errors are left out. With none left: no tools
 * and no instructions. Otherwise `instructions` is the catalog for the system prompt,
 * `load_skill` returns a skill's body and file list, and `read_skill_file` (when some skill has
 * a folder) reads one bundled file, capped at 256 KiB and confined to the skill folder.
 * Failures come back as error results the model can read; the tools never throw.
 */
export async function skillTools(service: Service, workspace: Workspace): Promise<SkillTools> {
  const skills = await enabledSkills(service, workspace);
  const tools: ToolSet = {};
  const origins = new Map<string, ToolOrigin>();
  if (skills.length === 0) return { tools, origins };
  const byName = new Map(skills.map((skill) => [skill.name, skill]));
  const withFolders = skills.filter((skill) => skill.root !== undefined);
  const toModelOutput = ({ output }: { output: unknown }) => (output as ToolRun).model;

  origins.set(LOAD_SKILL_TOOL, { source: "skills", tool: LOAD_SKILL_TOOL });
  tools[LOAD_SKILL_TOOL] = dynamicTool({
    description: "Loads the instructions of a skill listed under available_skills. Call it " +
      "when a task matches the skill's description, then follow what it returns.",
    inputSchema: jsonSchema({
      type: "object",
      properties: {
        name: { type: "string", enum: [...byName.keys()], description: "The skill's name" },
      },
      required: ["name"],
      additionalProperties: false,
    }),
    execute: (input) => {
      const started = performance.now();
      const name = field(input, "name");
      const skill = name === undefined ? undefined : byName.get(name);
      if (!skill) {
        const known = [...byName.keys()].join(", ");
        return Promise.resolve(
          result(`there is no skill named ${name}; use one of ${known}`, started, true),
        );
      }
      return Promise.resolve(result(skillContent(skill), started));
    },
    toModelOutput,
  });

  if (withFolders.length > 0) {
    origins.set(READ_SKILL_FILE_TOOL, { source: "skills", tool: READ_SKILL_FILE_TOOL });
    tools[READ_SKILL_FILE_TOOL] = dynamicTool({
      description: "Reads one file bundled with a skill, by its path relative to the skill " +
        `folder as ${LOAD_SKILL_TOOL} lists it. Files longer than 256 KiB are cut.`,
      inputSchema: jsonSchema({
        type: "object",
        properties: {
          name: {
            type: "string",
            enum: withFolders.map((skill) => skill.name),
            description: "The skill's name",
          },
          path: { type: "string", description: "e.g. references/REFERENCE.md" },
        },
        required: ["name", "path"],
        additionalProperties: false,
      }),
      execute: async (input) => {
        const started = performance.now();
        const name = field(input, "name");
        const path = field(input, "path");
        const skill = name === undefined ? undefined : byName.get(name);
        if (!skill) return result(`there is no skill named ${name}`, started, true);
        if (path === undefined) return result("the path is missing", started, true);
        const read = await service.skills.readFile(skill, path, { maxBytes: MAX_SKILL_FILE_BYTES });
        if (!read.ok) return result(read.error, started, true);
        if (read.binary) {
          return result(
            `${read.path} is a binary file of ${read.size} bytes; it is not shown`,
            started,
          );
        }
        const note = read.truncated
          ? `\n\n[cut: this is the first ${MAX_SKILL_FILE_BYTES} of ${read.size} bytes of ${read.path}]`
          : "";
        return result(read.text + note, started);
      },
      toModelOutput,
    });
  }

  return { tools, origins, instructions: catalogOf(skills, withFolders.length > 0) };
}
