/** What the tool-server manager takes: its collaborators and settings, side effects included. */
import type { EnvLookup } from "../../config/env_refs.ts";
import type { ConfigStore } from "../../config/store.ts";
import type { EventBus } from "../../events.ts";
import type { InteractionRegistry } from "../../interactions.ts";
import type { OAuthSignIn } from "../oauth/sign_in.ts";
import type { KeptEras } from "./kept_eras.ts";
import type { PinKeeper } from "../pinning/keeper.ts";
import type { InProcessHandler, SessionOpener } from "../session/types.ts";
import type { Sampler } from "../requests/types.ts";
import type { TaskFiles } from "../tasks/files.ts";

/** What the manager needs; everything with a side effect comes in here. */
export interface ManagerOptions {
  config: ConfigStore;
  events: EventBus;
  interactions: InteractionRegistry;
  env: EnvLookup;
  /** Whether a path exists (a stdio server's working directory is checked before it starts). */
  exists: (path: string) => boolean;
  /** Opens sessions; default: the MCP SDK (loaded on first use). */
  open?: SessionOpener;
  /** The built-in demo server; default: the demo room's server (loaded on first use). */
  demoServer?: () => Promise<InProcessHandler>;
  /** Completes sampling requests; without it they are refused with a clear error. */
  sampler?: Sampler;
  /** Deadline of a tool call, resource read or prompt; default 120 s. */
  callTimeoutMs?: number;
  /**
   * How long a server that a chat or the API used keeps healing (reconnecting after a failure)
   * when the active workspace does not use it; default 60 s.
   */
  recentUseMs?: number;
  /** The first wait before Lass reconnects a failed server by itself, doubled per try; default 1 s. */
  reconnectDelayMs?: number;
  /** OAuth sign-in for http and sse servers; without it a 401 is an error. */
  oauth?: OAuthSignIn;
  /**
   * Where running tasks are kept for the next start: with it, closing leaves them running on
   * their servers and {@link ToolServerManager.restoreTasks} follows them again; without it,
   * closing asks them to cancel.
   */
  taskFiles?: TaskFiles;
  /**
   * Compares what connected servers offer with their pins (`pinning`); without it nothing is
   * compared.
   */
  pins?: PinKeeper;
  /** The era verdicts of `auto` kept for the next start; without it they last one run. */
  keptEras?: KeptEras;
}
