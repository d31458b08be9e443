/**
 * The sign-in debugger of an http or sse server: the steps of its last OAuth sign-in attempt
 * (`GET /api/mcp/:id/oauth/trace`), each with its status, what Lass expected, the rule a failed
 * step broke and what to change, and its HTTP exchanges (secrets masked). "Sign in step by step"
 * signs out and starts a fresh sign-in, recorded from its first request; the user signs in in a
 * new tab as usual, and the steps fill in as the flow goes on (docs/oauth.md).
 */
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type {
  SignInExchange,
  SignInStep,
  SignInStepStatus,
  SignInTrace,
} from "../../wire/oauth_trace.ts";
import type { ToolServerState } from "../../wire/tool_servers.ts";
import { api, describeError, subscribe } from "../state.ts";
import { mcpApi } from "../tool_servers.ts";

const STATUS_CLASS: Record<SignInStepStatus, string> = {
  ok: "badge-ok",
  failed: "badge-error",
  pending: "badge-waiting",
  skipped: "badge-ended",
};

/** One side of an exchange: its headers, then its body. */
function Message({ label, headers, body }: {
  label: string;
  headers: Record<string, string>;
  body?: string;
}) {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return (
    <div class="exchange-part">
      <h5>{label}</h5>
      {lines.length > 0 ? <pre class="exchange-text">{lines.join("\n")}</pre> : null}
      {body ? <pre class="exchange-text">{body}</pre> : null}
    </div>
  );
}

/** One exchange, folded to its first line. */
function Exchange({ exchange }: { exchange: SignInExchange }) {
  const by = exchange.by === "browser"
    ? "opened in the browser"
    : exchange.by === "callback"
    ? "the browser came back"
    : "";
  const answer = exchange.response
    ? `→ ${exchange.response.status}`
    : exchange.error
    ? "→ no answer"
    : "";
  return (
    <details class="exchange">
      <summary>
        <code>{exchange.method}</code> <span class="exchange-url">{exchange.url}</span>{" "}
        <strong>{answer}</strong>
        {by ? <span class="hint">{by}</span> : null}
      </summary>
      <Message label="Request" headers={exchange.request.headers} body={exchange.request.body} />
      {exchange.response
        ? (
          <Message
            label={`Response ${exchange.response.status}${
              exchange.ms === undefined ? "" : ` (${exchange.ms} ms)`
            }`}
            headers={exchange.response.headers}
            body={exchange.response.body}
          />
        )
        : null}
      {exchange.error ? <p class="error">{exchange.error}</p> : null}
    </details>
  );
}

/** The chosen step: expectation, verdict, rule and fix, exchanges. */
function StepDetail({ step, authUrl }: { step: SignInStep; authUrl?: string }) {
  return (
    <section class="sign-in-step-detail" aria-label={`Step: ${step.title}`}>
      <h4>
        {step.title} <span class={`badge ${STATUS_CLASS[step.status]}`}>{step.status}</span>
      </h4>
      <p>
        <strong>Expected:</strong> {step.expected}
      </p>
      {step.detail ? <p class="hint">{step.detail}</p> : null}
      {step.rule
        ? (
          <p class="sign-in-rule" role="alert">
            <strong>Rule broken:</strong> {step.rule}
          </p>
        )
        : null}
      {step.fix
        ? (
          <p class="sign-in-fix">
            <strong>What to change:</strong> {step.fix}
          </p>
        )
        : null}
      {step.step === "authorization" && step.status === "pending" && authUrl
        ? (
          <p>
            <a class="sign-in" href={authUrl} target="_blank" rel="noopener noreferrer">
              Open the sign-in page
            </a>{" "}
            <span class="hint">in a new tab; the steps go on when it comes back</span>
          </p>
        )
        : null}
      {step.exchanges.length > 0
        ? step.exchanges.map((exchange, index) => <Exchange key={index} exchange={exchange} />)
        : <p class="hint">No HTTP exchange at this step.</p>}
    </section>
  );
}

/** The step to show first: the first failed one, else the first waiting one, else the last ok. */
function focusOf(trace: SignInTrace): number {
  const { steps } = trace;
  const failed = steps.findIndex((step) => step.status === "failed");
  if (failed >= 0) return failed;
  const pending = steps.findIndex((step) => step.status === "pending");
  if (pending >= 0) return pending;
  return Math.max(0, steps.findLastIndex((step) => step.status === "ok"));
}

/** "Sign in step by step" and the steps of the last sign-in attempt of an http or sse server. */
export function SignInDebugger({ state }: { state: ToolServerState }) {
  const trace = useSignal<SignInTrace | null>(null);
  const chosen = useSignal<number | null>(null);
  const busy = useSignal(false);
  const error = useSignal<string | null>(null);
  const open = useSignal(false);
  const serverId = state.id;

  const load = async () => {
    try {
      const answer = await api().json<SignInTrace>(
        "GET",
        `/api/mcp/${encodeURIComponent(serverId)}/oauth/trace`,
      );
      trace.value = answer;
      error.value = null;
    } catch (failure) {
      error.value = describeError(failure);
    }
  };

  // While open, the steps follow the server's state and the sign-in page's message.
  useEffect(() => {
    if (!open.value) return;
    void load();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void load(), 150);
    };
    const stop = subscribe((event) => {
      if (event.type === "mcp.state" && event.data.id === serverId) later();
    });
    const onMessage = (event: MessageEvent) => {
      if (event.origin === location.origin && event.data?.type === "lass.oauth") later();
    };
    addEventListener("message", onMessage);
    return () => {
      clearTimeout(timer);
      stop();
      removeEventListener("message", onMessage);
    };
  }, [serverId, open.value]);

  const start = async () => {
    busy.value = true;
    error.value = null;
    chosen.value = null;
    try {
      await mcpApi.signOut(serverId);
      await load();
    } catch (failure) {
      error.value = describeError(failure);
    } finally {
      busy.value = false;
    }
  };

  const steps = trace.value?.steps ?? [];
  const index = steps.length === 0
    ? -1
    : Math.min(chosen.value ?? focusOf(trace.value!), steps.length - 1);
  const current = index >= 0 ? steps[index] : undefined;
  return (
    <details
      class="sign-in-debugger"
      onToggle={(event) => open.value = (event.currentTarget as HTMLDetailsElement).open}
    >
      <summary>Sign-in (OAuth)</summary>
      <div class="sign-in-bar">
        <button type="button" class="primary" disabled={busy.value} onClick={start}>
          {busy.value ? "Starting…" : "Sign in step by step"}
        </button>
        <button type="button" onClick={() => void load()}>Reload the steps</button>
        <span class="hint">
          Signs out of {state.name} and signs in again from the start, recording each step.
        </span>
      </div>
      {error.value ? <p class="error" role="alert">{error.value}</p> : null}
      {trace.value && steps.length === 0
        ? <p class="hint">No sign-in attempt of this server since Lass started.</p>
        : null}
      {trace.value?.error ? <p class="error">{trace.value.error}</p> : null}
      {steps.length > 0
        ? (
          <div class="sign-in-steps">
            <ol aria-label="Sign-in steps">
              {steps.map((step, position) => (
                <li key={step.step}>
                  <button
                    type="button"
                    aria-current={position === index ? "step" : undefined}
                    onClick={() => chosen.value = position}
                  >
                    <span class={`badge ${STATUS_CLASS[step.status]}`}>{step.status}</span>{" "}
                    <span class="step-title">{position + 1}. {step.title}</span>
                    {step.exchanges.length > 0
                      ? (
                        <span class="count" title="HTTP exchanges">
                          {step.exchanges.length}
                        </span>
                      )
                      : null}
                  </button>
                </li>
              ))}
            </ol>
            <div class="sign-in-stepper">
              <div class="sign-in-bar">
                <button
                  type="button"
                  disabled={index <= 0}
                  onClick={() => chosen.value = index - 1}
                >
                  Previous step
                </button>
                <span class="hint">Step {index + 1} of {steps.length}</span>
                <button
                  type="button"
                  disabled={index >= steps.length - 1}
                  onClick={() => chosen.value = index + 1}
                >
                  Next step
                </button>
              </div>
              {current
                ? (
                  <StepDetail
                    key={current.step}
                    step={current}
                    authUrl={state.status === "needs-auth" ? state.authUrl : undefined}
                  />
                )
                : null}
            </div>
          </div>
        )
        : null}
    </details>
  );
}
