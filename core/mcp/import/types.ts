/** What the import's readers and the import share: a server as a client config describes it. */
import type { ToolServerTransport } from "../../../wire/tool_servers.ts";

/** One server as a client config describes it, in Lass's terms, before placeholders and ids. */
export interface ServerDraft {
  transport: ToolServerTransport;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  disabledTools?: string[];
  /** Tools the client ran without asking. */
  autoApprove?: string[];
  /** Every tool ran without asking (Gemini `trust: true`). */
  trusted?: boolean;
  timeoutMs?: number;
  scopes?: string[];
}

/** One entry of a server map under its original key: a draft, or none when it cannot be read. */
export interface ServerEntry {
  key: string;
  draft?: ServerDraft;
  /** Sentences about this entry, without the key. */
  notes: string[];
}

/** What a reader found: the entries, and VS Code input prompts by input id. */
export interface ReadResult {
  entries: ServerEntry[];
  prompts: Map<string, string>;
}
