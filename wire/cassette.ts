/**
 * The cassette (`*.cassette.json`): what one tool server said, recorded for replay and verify.
 * The zod schema is the single source of the type, the checks and `schema/cassette.schema.json`.
 */
import { z } from "zod";

/** The cassette format's version; a reader refuses another. */
export const CASSETTE_VERSION = 1;

/** A JSON object. */
const JsonObject = z.record(z.string(), z.unknown());

/** A JSON-RPC error as the server answered it. */
const RpcError = z.looseObject({
  code: z.int(),
  message: z.string(),
  data: z.unknown().optional(),
});

/** A message the server sent while a request ran (or after it): a notification or a request. */
const CassetteEvent = z.strictObject({
  at: z.number().min(0).meta({
    description: "Milliseconds after the exchange's request was sent (after its response when " +
      "`after` is true)",
  }),
  message: JsonObject.meta({
    description: "The JSON-RPC notification or request the server sent, as it crossed",
  }),
  reply: JsonObject.optional().meta({
    description: "A server request's answer from the client (a response or an error), as sent",
  }),
  after: z.literal(true).optional().meta({
    description: "Sent after the exchange's response, not while it ran (unsolicited messages)",
  }),
});

/** One request of the client, its answer, and what the server sent meanwhile. */
const CassetteExchange = z.strictObject({
  request: z.strictObject({
    method: z.string().min(1),
    params: JsonObject.optional(),
  }).meta({ description: "The client's request without its JSON-RPC id" }),
  result: z.unknown().optional().meta({ description: "The server's result" }),
  error: RpcError.optional().meta({ description: "The server's JSON-RPC error" }),
  ms: z.number().min(0).optional().meta({
    description: "Milliseconds from the request to its answer; absent when none came",
  }),
  events: z.array(CassetteEvent).optional().meta({
    description: "Notifications and server requests in the order they came",
  }),
  truncated: z.literal(true).optional().meta({
    description: "A message of the exchange was over 64 KiB and clipped in the trace",
  }),
});

/** Who the server is and what it answered to the handshake. */
const CassetteServer = z.strictObject({
  id: z.string().min(1).meta({ description: "The tool-server id it was recorded under" }),
  name: z.string().optional(),
  transport: z.string().optional().meta({ description: "How Lass reached it when recording" }),
  era: z.enum(["legacy", "modern"]).meta({
    description: "`legacy`: the 2025 `initialize` handshake; `modern`: 2026-07-28 " +
      "`server/discover`",
  }),
  protocolVersion: z.string().optional(),
  serverInfo: z.looseObject({ name: z.string(), version: z.string() }).optional(),
  capabilities: JsonObject.default({}),
  instructions: z.string().optional(),
  handshake: JsonObject.optional().meta({
    description: "The raw result of `initialize` (legacy) or `server/discover` (modern), when " +
      "the recording saw it",
  }),
});

/** What the server listed. */
const CassetteLists = z.strictObject({
  tools: z.array(JsonObject).default([]),
  prompts: z.array(JsonObject).default([]),
  resources: z.array(JsonObject).default([]),
  resourceTemplates: z.array(JsonObject).default([]),
});

/** A whole cassette. */
export const CassetteSchema = z.strictObject({
  $schema: z.string().optional(),
  lassCassette: z.literal(CASSETTE_VERSION).meta({ description: "The format's version: 1" }),
  recordedAt: z.string().meta({ description: "When it was made (ISO 8601)" }),
  server: CassetteServer,
  lists: CassetteLists.default({ tools: [], prompts: [], resources: [], resourceTemplates: [] }),
  exchanges: z.array(CassetteExchange).default([]).meta({
    description: "The recorded requests in the order they were sent (the handshake excluded)",
  }),
}).meta({
  title: "Lass cassette",
  description: "A tool server's recorded answers (docs/recordings.md); secrets are removed",
});

/** A cassette as read and checked. */
export type Cassette = z.output<typeof CassetteSchema>;
/** One recorded exchange. */
export type CassetteExchange = z.output<typeof CassetteExchange>;
/** A message the server sent during an exchange. */
export type CassetteEvent = z.output<typeof CassetteEvent>;
/** The cassette's server part. */
export type CassetteServer = z.output<typeof CassetteServer>;
/** The cassette's lists. */
export type CassetteLists = z.output<typeof CassetteLists>;

/** The JSON Schema of a cassette (`schema/cassette.schema.json`). */
export function cassetteJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(CassetteSchema, { io: "input" }) as Record<string, unknown>;
}

/** What `POST /api/mcp/:id/verify` and `lass verify` report for one exchange. */
export interface VerifyExchangeResult {
  /** The exchange's place in the cassette (0-based). */
  index: number;
  method: string;
  /** The tool, prompt or resource the request names, when it names one. */
  name?: string;
  /**
   * `same`: the answers match; `drift`: they differ; `failed`: the request could not be sent;
   * `skipped`: verify does not send this method (a listen stream, a setting).
   */
  outcome: "same" | "drift" | "failed" | "skipped";
  /** The differences, one per JSON pointer. */
  differences: VerifyDifference[];
  /** Why the request could not be sent. */
  reason?: string;
  durationMs: number;
}

/** One difference between the recorded and the live answer. */
export interface VerifyDifference {
  /** A JSON pointer into the answer (`/result/content/0/text`). */
  path: string;
  /** The recorded value; absent when the live answer added the path. */
  recorded?: unknown;
  /** The live value; absent when the live answer lost the path. */
  live?: unknown;
}

/** The report of a verify run. */
export interface VerifyReport {
  serverId: string;
  ok: boolean;
  exchanges: VerifyExchangeResult[];
  same: number;
  drifted: number;
  failed: number;
  skipped: number;
  durationMs: number;
}
