/**
 * Telemetry of a running service: off (nothing loaded) until the config's `telemetry.otlp` or the
 * `OTEL_EXPORTER_OTLP_*` variables name a receiver; then the recorder and its export worker
 * (`otel.ts`) are loaded and every chat turn, eval run and the MCP requests inside them become
 * traces. A config change turns it on, off or to another receiver; closing sends what is left.
 */
import type { ConfigStore } from "../config/store.ts";
import type { EnvLookup } from "../config/env_refs.ts";
import type { EventBus } from "../events.ts";
import { redactUrl } from "../config/redact.ts";
import { telemetrySettings } from "./settings.ts";
import type { SpanOptions, TelemetrySettings, TraceSpan, Tracing } from "./types.ts";

/** Whether this process ever loaded the OpenTelemetry SDK (tests check that it stays unloaded). */
let sdkLoaded = false;

/** Whether any service of this process loaded the OpenTelemetry SDK. */
export function telemetrySdkLoaded(): boolean {
  return sdkLoaded;
}

/** What the service needs to open its telemetry. */
export interface TelemetryOptions {
  config: ConfigStore;
  env: EnvLookup;
  events: EventBus;
}

/** The exporter in force, following the config. */
export class Telemetry {
  readonly #options: TelemetryOptions;
  readonly #unsubscribe: () => void;
  #tracing: Tracing | undefined;
  /** The settings in force (as a key), `undefined` when off. */
  #key: string | undefined;
  /** The last switch (load of the SDK, shutdown of the previous exporter). */
  #switching: Promise<void> = Promise.resolve();

  private constructor(options: TelemetryOptions) {
    this.#options = options;
    this.#unsubscribe = options.config.subscribe(() => this.#follow());
  }

  /** Opens the service's telemetry; when the config turns it on, the SDK is loaded first. */
  static async open(options: TelemetryOptions): Promise<Telemetry> {
    const telemetry = new Telemetry(options);
    telemetry.#follow();
    await telemetry.settled();
    return telemetry;
  }

  /** The exporter, or `undefined` while telemetry is off (or still loading). */
  get tracing(): Tracing | undefined {
    return this.#tracing;
  }

  /**
   * Opens the root span of a new trace, or a child of `parent`; `undefined` when telemetry is
   * off. Compare turns and eval runs open their span with it and pass it to `prepareChat`.
   */
  startSpan(
    name: string,
    options: SpanOptions & { parent?: TraceSpan } = {},
  ): TraceSpan | undefined {
    if (options.parent) return options.parent.child(name, options);
    return this.#tracing?.startSpan(name, options);
  }

  /** Resolves once the last change of the settings took effect. */
  async settled(): Promise<void> {
    let last: Promise<void>;
    do {
      last = this.#switching;
      await last;
    } while (last !== this.#switching);
  }

  /** Sends every ended span now; a failed send is a `telemetry.error` event, not a rejection. */
  async flush(): Promise<void> {
    await this.settled();
    await this.#tracing?.flush().catch(() => {});
  }

  /** Stops following the config and sends what is left. */
  async close(): Promise<void> {
    this.#unsubscribe();
    this.#key = undefined;
    const tracing = this.#tracing;
    this.#tracing = undefined;
    await this.settled();
    await tracing?.shutdown().catch(() => {});
  }

  /** Applies the settings of the current config, if they changed. */
  #follow(): void {
    let settings: TelemetrySettings | undefined;
    try {
      settings = telemetrySettings(this.#options.config.config, this.#options.env);
    } catch (error) {
      this.#failed(`the telemetry endpoint is not a URL: ${(error as Error).message}`);
      settings = undefined;
    }
    const key = settings && JSON.stringify(settings);
    if (key === this.#key) return;
    this.#key = key;
    const previous = this.#tracing;
    this.#tracing = undefined;
    this.#switching = this.#switching.then(async () => {
      await previous?.shutdown().catch(() => {});
      if (!settings || this.#key !== key) return;
      const { createTracing } = await import("./otel.ts");
      sdkLoaded = true;
      if (this.#key !== key) return;
      this.#tracing = createTracing(settings, (message) => this.#failed(message));
      this.#options.events.emit("telemetry.on", {
        url: redactUrl(settings.url),
        protocol: settings.protocol,
        source: settings.source,
      });
    }).catch((error) => this.#failed(`telemetry could not start: ${error.message}`));
    if (!settings && previous) this.#options.events.emit("telemetry.off", {});
  }

  #failed(message: string): void {
    this.#options.events.emit("telemetry.error", { message });
  }
}
