/** The `telemetry` section of `service.json`: where Lass exports its OpenTelemetry traces. */
import { z } from "zod";
import { HttpUrl, Name, StringMap } from "./_record_fields.ts";

/** The OTLP encodings Lass can send over HTTP. */
export const OTLP_PROTOCOLS = ["http/protobuf", "http/json"] as const;

/** An OTLP/HTTP trace receiver. */
export const OtlpSchema = z.strictObject({
  endpoint: HttpUrl.meta({
    description: "The OTLP/HTTP endpoint, e.g. http://localhost:4318 (`/v1/traces` is added " +
      "unless the path already ends with it)",
  }),
  headers: StringMap.optional().meta({
    description: "Headers of every export request (API keys: use env references)",
  }),
  protocol: z.enum(OTLP_PROTOCOLS).default("http/protobuf").meta({
    description: "How spans are encoded: protobuf (the default) or JSON",
  }),
});

/** Traces of chat turns, tool calls, MCP requests and eval runs, sent to an OTLP receiver. */
export const TelemetrySchema = z.strictObject({
  otlp: OtlpSchema.optional().meta({
    description: "Export traces over OTLP/HTTP; without it the OTEL_EXPORTER_OTLP_* variables " +
      "are used, and without those telemetry is off",
  }),
  serviceName: Name.optional().meta({
    description: "The service.name of the traces; default OTEL_SERVICE_NAME, else lass",
  }),
});
