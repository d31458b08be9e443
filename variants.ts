import { openService } from "./core/service.ts";
import { createHandler, ROUTES } from "./routes/app.ts";
import { Router } from "./routes/router.ts";
import { checkHostAndOrigin, tokenOf, tokensMatch } from "./routes/security.ts";
import { respond } from "./routes/http.ts";
const mode = Deno.args[0];
const port = Number(Deno.args[1]);
const s = await openService({
  configPath: "/tmp/rs/s.json",
  dataDir: "/tmp/rs/d",
  env: (n) => Deno.env.get(n),
  watchConfig: false,
});
const real = createHandler({ service: s, token: "tok" });
const body = await (await real(
  new Request("http://127.0.0.1/api/bootstrap", { headers: { "x-service-token": "tok" } }),
)).text();
const router = new Router(ROUTES);
const allowed = new Set<string>();
const extra = {
  "content-type": "application/json; charset=utf-8",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};
const handlers: Record<string, (req: Request) => Response | Promise<Response>> = {
  A: () => new Response(body, { headers: { "content-type": "application/json; charset=utf-8" } }),
  R: () => respond(body),
  S: (req) => {
    const url = new URL(req.url);
    checkHostAndOrigin(req, url, allowed);
    return respond(body);
  },
  T: (req) => {
    const url = new URL(req.url);
    checkHostAndOrigin(req, url, allowed);
    const m = router.match(req.method, url.pathname);
    const t = tokenOf(req, url);
    if (!tokensMatch(t ?? "", "tok") || m.kind !== "found") throw new Error();
    return respond(body);
  },
  D: real,
  C: () => new Response(body, { headers: extra }),
  H: () =>
    new Response(body, {
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
    }),
};
Deno.serve({ port, hostname: "127.0.0.1", onListen() {} }, handlers[mode]);
