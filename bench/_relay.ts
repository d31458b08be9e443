/**
 * The floors of any proxy in the middle, for `proxy_bench.ts`: run as its own process,
 * `deno run -A bench/_relay.ts <tcp|http> <upstream URL> <port>` prints `ready` once it listens.
 * `tcp` copies bytes both ways per connection (no HTTP parsed: the least any process in the
 * middle costs); `http` is a bare HTTP relay (`Deno.serve` and `fetch`, the body read and sent on,
 * nothing traced or checked: the least an HTTP proxy that sees the messages costs).
 */
const [mode, upstream, port] = Deno.args;
const target = new URL(upstream);

/** Hop-by-hop headers a relay does not pass on. */
const HOP = new Set(["host", "connection", "keep-alive", "content-length", "transfer-encoding"]);

function withoutHops(headers: Headers): Headers {
  const out = new Headers();
  for (const [name, value] of headers) if (!HOP.has(name)) out.set(name, value);
  return out;
}

if (mode === "tcp") {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: Number(port) });
  console.log("ready");
  for await (const client of listener) {
    Deno.connect({ hostname: target.hostname, port: Number(target.port) }).then((server) => {
      client.readable.pipeTo(server.writable).catch(() => {});
      server.readable.pipeTo(client.writable).catch(() => {});
    }, () => client.close());
  }
} else if (mode === "http") {
  Deno.serve(
    { hostname: "127.0.0.1", port: Number(port), onListen: () => console.log("ready") },
    async (req) => {
      const body = req.method === "POST" ? await req.text() : undefined;
      const response = await fetch(new URL(new URL(req.url).pathname, target), {
        method: req.method,
        headers: withoutHops(req.headers),
        body,
      });
      return new Response(response.body, {
        status: response.status,
        headers: withoutHops(response.headers),
      });
    },
  );
} else {
  console.error("usage: _relay.ts <tcp|http> <upstream URL> <port>");
  Deno.exit(2);
}
