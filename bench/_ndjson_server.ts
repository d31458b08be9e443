/**
 * The scale bench's baseline: a bare `Deno.serve` that answers every POST with the same NDJSON
 * lines, one stream chunk each, after reading the request body: the floor under what a chat turn
 * costs over HTTP. Run as `deno run --allow-net --allow-read _ndjson_server.ts <lines.json>`; it
 * prints `ready <port>`.
 */
const lines: string[] = JSON.parse(await Deno.readTextFile(Deno.args[0]));
const encoder = new TextEncoder();

Deno.serve(
  { port: 0, hostname: "127.0.0.1", onListen: ({ port }) => console.log(`ready ${port}`) },
  async (req) => {
    await req.arrayBuffer();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const line of lines) controller.enqueue(encoder.encode(line + "\n"));
        controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "application/x-ndjson" } });
  },
);
