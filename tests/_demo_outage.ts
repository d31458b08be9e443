/** The demo tool server over Streamable HTTP, with an outage on demand (tests of lost connections). */
import { createDemoHandler } from "../core/mcp/demo_server.ts";

/**
 * The demo tool server over Streamable HTTP on one port, with an outage: `down()` cuts every open
 * response and stops listening, `up()` listens again on the same port with the same demo (so its
 * tasks are still there).
 */
export function demoWithOutage() {
  const demo = createDemoHandler();
  const open = new Set<TransformStreamDefaultController<Uint8Array>>();
  const handler = async (req: Request) => {
    const response = await demo.fetch(req);
    if (!response.body) return response;
    let controller!: TransformStreamDefaultController<Uint8Array>;
    const cut = new TransformStream<Uint8Array, Uint8Array>({
      start: (c) => void open.add(controller = c),
      flush: () => void open.delete(controller),
    });
    return new Response(response.body.pipeThrough(cut), response);
  };
  const listen = (port: number) =>
    Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, handler);
  let server = listen(0);
  const port = server.addr.port;
  const stop = async () => {
    for (const stream of open) stream.terminate();
    open.clear();
    await server.shutdown();
  };
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    down: stop,
    up: () => void (server = listen(port)),
    close: async () => {
      await stop();
      await demo.close();
    },
  };
}
