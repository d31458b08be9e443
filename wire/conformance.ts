/**
 * Conformance of a tool server: the official MCP conformance suite's server scenarios run against
 * one server of the config (`POST /api/mcp/:id/conformance`, `lass check --conformance`).
 */

/** The pinned suite: the npm package and its version. */
export const CONFORMANCE_SUITE = {
  package: "@modelcontextprotocol/conformance",
  version: "0.1.16",
} as const;

/** The server scenarios of the pinned suite's active suite, in the order it runs them. */
export const ACTIVE_SCENARIOS = [
  "server-initialize",
  "logging-set-level",
  "ping",
  "completion-complete",
  "tools-list",
  "tools-call-simple-text",
  "tools-call-image",
  "tools-call-audio",
  "tools-call-embedded-resource",
  "tools-call-mixed-content",
  "tools-call-with-logging",
  "tools-call-error",
  "tools-call-with-progress",
  "tools-call-sampling",
  "tools-call-elicitation",
  "elicitation-sep1034-defaults",
  "server-sse-multiple-streams",
  "elicitation-sep1330-enums",
  "resources-list",
  "resources-read-text",
  "resources-read-binary",
  "resources-templates-read",
  "resources-subscribe",
  "resources-unsubscribe",
  "prompts-list",
  "prompts-get-simple",
  "prompts-get-with-args",
  "prompts-get-embedded-resource",
  "prompts-get-with-image",
  "dns-rebinding-protection",
] as const;

/** Every server scenario of the pinned suite: the active ones and those it marks pending. */
export const SERVER_SCENARIOS = [
  ...ACTIVE_SCENARIOS,
  "json-schema-2020-12",
  "server-sse-polling",
] as const;

/** A server scenario's name. */
export type ServerScenario = (typeof SERVER_SCENARIOS)[number];

/**
 * The scenarios that test the HTTP transport itself (event-stream polling, several streams, the
 * Host check). Through Lass's proxy they would test Lass's bridge, not the server behind it.
 */
export const HTTP_TRANSPORT_SCENARIOS: readonly ServerScenario[] = [
  "server-sse-polling",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
];

/** How the suite reaches the server: its own URL, or Lass's `/mcp/:id` proxy. */
export type ConformanceVia = "direct" | "proxy";

/** One check of a scenario, as the suite reports it. */
export interface ConformanceCheck {
  id: string;
  name: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  description: string;
  errorMessage?: string;
}

/** One scenario's outcome: failed when a check failed; skipped when it was not run (`reason`). */
export interface ConformanceScenarioResult {
  name: string;
  status: "passed" | "failed" | "skipped";
  checks: ConformanceCheck[];
  /** How long it ran (0 when skipped). */
  durationMs: number;
  /** Why it failed without checks, or why it was skipped. */
  reason?: string;
}

/** The report of one server's run. */
export interface ConformanceReport {
  serverId: string;
  /** `@modelcontextprotocol/conformance@<version>`. */
  suite: string;
  /** How the suite reached the server; absent when it was not run. */
  via?: ConformanceVia;
  /** True when no scenario failed (a server not run is not a failure). */
  ok: boolean;
  /** Why the server was not run at all (e.g. `"proxy": false` on a stdio server). */
  notRun?: string;
  passed: number;
  failed: number;
  skipped: number;
  durationMs: number;
  scenarios: ConformanceScenarioResult[];
}

/** A line of the NDJSON stream of `POST /api/mcp/:id/conformance`. */
export type ConformanceLine =
  | {
    type: "start";
    serverId: string;
    suite: string;
    via: ConformanceVia;
    /** The URL the suite connects to (the token left out). */
    url: string;
    /** The scenarios asked for; absent for the whole suite. */
    scenarios?: string[];
  }
  | { type: "scenario"; serverId: string; scenario: ConformanceScenarioResult }
  | { type: "report"; report: ConformanceReport }
  | { type: "error"; error: { code: string; message: string } };
