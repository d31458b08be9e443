/** The demo server's plain tools: arithmetic, echo, fake weather, time, random numbers, progress, failure. */
import { z } from "zod";
import type { CallToolResult, McpServer, ServerContext } from "@modelcontextprotocol/server";

/**
 * Sends an info log message about a tool call. The SDK drops it below the level the client asked
 * for: per session (`logging/setLevel`) on the 2025 era, per request (the log-level `_meta` key,
 * no key = no logs) on 2026-07-28. Best effort: a log that cannot be sent must not fail the tool.
 */
export async function logToolCall(ctx: ServerContext, message: string): Promise<void> {
  try {
    await ctx.mcpReq.log("info", message, "lass-demo");
  } catch {
    // The connection is gone or closing; the tool's own answer tells the rest.
  }
}

/** A tool result that reports a problem to the model instead of throwing a protocol error. */
export function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text: message }] };
}

/** Registers `add`, `echo`, `get_weather`, `current_time`, `random_number`, `slow_count` and `fail`. */
export function registerBasicTools(server: McpServer): void {
  server.registerTool("add", {
    title: "Add two numbers",
    description: "Adds two numbers and returns the sum.",
    inputSchema: z.object({
      a: z.number().describe("First addend"),
      b: z.number().describe("Second addend"),
    }),
    outputSchema: z.object({ sum: z.number() }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, async ({ a, b }, ctx) => {
    await logToolCall(ctx, `add: ${a} + ${b}`);
    const sum = a + b;
    return { content: [{ type: "text", text: String(sum) }], structuredContent: { sum } };
  });

  server.registerTool("echo", {
    title: "Echo text",
    description: "Returns the text unchanged, repeated `times` times (one per line).",
    inputSchema: z.object({
      text: z.string().describe("The text to echo"),
      times: z.int().min(1).max(10).optional().describe("How many copies, 1-10 (default 1)"),
    }),
    outputSchema: z.object({ text: z.string() }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, async ({ text, times = 1 }, ctx) => {
    await logToolCall(ctx, `echo: ${times}×`);
    const echoed = Array.from({ length: times }, () => text).join("\n");
    return { content: [{ type: "text", text: echoed }], structuredContent: { text: echoed } };
  });

  server.registerTool("get_weather", {
    title: "Get the weather (made up)",
    description:
      "Returns MADE-UP weather for a city. The numbers are derived from the city name, " +
      "so they are stable but have nothing to do with the real weather.",
    inputSchema: z.object({ city: z.string().min(1).describe("City name, e.g. Oslo") }),
    outputSchema: z.object({
      city: z.string(),
      conditions: z.string(),
      temperatureC: z.number(),
      humidityPercent: z.number(),
      windKph: z.number(),
      madeUp: z.literal(true),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, async ({ city }, ctx) => {
    await logToolCall(ctx, `get_weather: ${city}`);
    const weather = fakeWeather(city);
    const text = `${weather.city}: ${weather.conditions}, ${weather.temperatureC} °C, ` +
      `humidity ${weather.humidityPercent}%, wind ${weather.windKph} km/h (made-up data).`;
    return { content: [{ type: "text", text }], structuredContent: weather };
  });

  server.registerTool("current_time", {
    title: "Current time",
    description: "Returns the current time as ISO 8601, in UTC and in an optional IANA time zone.",
    inputSchema: z.object({
      timeZone: z.string().optional().describe("IANA time zone, e.g. Europe/Paris (default UTC)"),
    }),
    outputSchema: z.object({ utc: z.string(), timeZone: z.string(), local: z.string() }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, async ({ timeZone = "UTC" }, ctx) => {
    await logToolCall(ctx, `current_time: ${timeZone}`);
    const now = new Date();
    const local = isoInTimeZone(now, timeZone);
    if (local === undefined) {
      return toolError(`Unknown time zone "${timeZone}": use an IANA name such as Europe/Paris.`);
    }
    return {
      content: [{ type: "text", text: `${local} (${timeZone})` }],
      structuredContent: { utc: now.toISOString(), timeZone, local },
    };
  });

  server.registerTool("random_number", {
    title: "Random number",
    description: "Returns a random integer between min and max, inclusive. Uses Math.random: " +
      "not seeded, not reproducible and not for anything secret.",
    inputSchema: z.object({
      min: z.int().optional().describe("Smallest value (default 1)"),
      max: z.int().optional().describe("Largest value (default 100)"),
    }),
    outputSchema: z.object({ value: z.int(), min: z.int(), max: z.int() }),
    annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
  }, async ({ min = 1, max = 100 }, ctx) => {
    await logToolCall(ctx, `random_number: ${min}..${max}`);
    if (min > max) return toolError(`min (${min}) must not be greater than max (${max}).`);
    const value = min + Math.floor(Math.random() * (max - min + 1));
    return {
      content: [{ type: "text", text: String(value) }],
      structuredContent: { value, min, max },
    };
  });

  server.registerTool("slow_count", {
    title: "Count slowly",
    description: "Counts to `steps`, waiting `delayMs` between steps and reporting progress " +
      "after each one. Cancellable.",
    inputSchema: z.object({
      steps: z.int().min(1).max(50).optional().describe("How many steps, 1-50 (default 5)"),
      delayMs: z.int().min(0).max(5000).optional().describe("Pause per step in ms (default 500)"),
    }),
    outputSchema: z.object({ steps: z.int() }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, async ({ steps = 5, delayMs = 500 }, ctx) => {
    await logToolCall(ctx, `slow_count: ${steps} steps of ${delayMs} ms`);
    const progressToken = ctx.mcpReq._meta?.progressToken;
    for (let step = 1; step <= steps; step++) {
      if (!await sleep(delayMs, ctx.mcpReq.signal)) {
        await logToolCall(ctx, `slow_count: cancelled after ${step - 1} of ${steps}`);
        return toolError(`Cancelled after ${step - 1} of ${steps} steps.`);
      }
      if (progressToken === undefined) continue;
      await ctx.mcpReq.notify({
        method: "notifications/progress",
        params: {
          progressToken,
          progress: step,
          total: steps,
          message: `Step ${step} of ${steps}`,
        },
      });
    }
    return {
      content: [{ type: "text", text: `Counted to ${steps}.` }],
      structuredContent: { steps },
    };
  });

  server.registerTool("fail", {
    title: "Always fail",
    description: "Always fails with a tool error (isError: true), to try how errors are shown.",
    inputSchema: z.object({
      reason: z.string().optional().describe("Text to include in the error"),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }, async ({ reason }, ctx) => {
    await logToolCall(ctx, "fail: failing on purpose");
    return toolError(`The fail tool always fails${reason ? `: ${reason}` : "."}`);
  });
}

/** Waits `ms` milliseconds; resolves false at once (and clears the timer) when `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

const CONDITIONS = ["sunny", "partly cloudy", "cloudy", "light rain", "showers", "windy", "snow"];

/** Stable fake weather: every number comes from a hash of the normalised city name. */
function fakeWeather(city: string) {
  const name = city.trim();
  let hash = 2166136261;
  for (const char of name.toLowerCase()) hash = Math.imul(hash ^ char.codePointAt(0)!, 16777619);
  hash >>>= 0;
  return {
    city: name,
    conditions: CONDITIONS[hash % CONDITIONS.length],
    temperatureC: (hash >>> 3) % 36 - 5,
    humidityPercent: 30 + (hash >>> 9) % 61,
    windKph: (hash >>> 17) % 41,
    madeUp: true as const,
  };
}

/** `date` as ISO 8601 with the offset of `timeZone`, or undefined if the zone is unknown. */
function isoInTimeZone(date: Date, timeZone: string): string | undefined {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      timeZoneName: "longOffset",
    });
  } catch {
    return undefined;
  }
  const part = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
  const offset = part.timeZoneName === "GMT" ? "Z" : part.timeZoneName.replace("GMT", "");
  return `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}${offset}`;
}
