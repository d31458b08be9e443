/** `lass record`: records a configured tool server into a cassette file. */
import { LassError } from "../core/errors.ts";
import { plural } from "../wire/words.ts";
import { CliError } from "./errors.ts";
import { declineQuestions } from "./questions.ts";
import { writeReportFile } from "./output.ts";
import { COMMON_HELP, openLass, parseFlags, RUN_ONCE } from "./options.ts";

/** The help of `lass record`. */
export const RECORD_HELP =
  `Usage: lass record <serverId> --out <file.cassette.json> [--script <file>]

Connects the configured tool server afresh, lists its tools, prompts, resources and resource
templates, runs the calls of the script (if given), and writes everything that crossed as a
cassette: the handshake, the lists, each request with its answer, the notifications and server
requests in between and the timing, with the record's secrets removed (docs/recordings.md).

The script (YAML or JSON) lists calls in order:
  calls:
    - tool: get-sum
      args: { a: 1, b: 2 }
    - resource: demo://resource/static/document/1
    - prompt: simple-prompt

Sampling and elicitation requests that the record says to ask about are declined (no one is
there to answer); with sampling: auto the workspace's model answers.

Exit code 0 when written, 1 when the server does not connect or a call fails (the cassette is
written all the same), 2 for a usage error.

Options:
  --out <file>        The cassette file to write (- for stdout); missing folders are created
  --script <file>     The calls to make after listing
${COMMON_HELP}
`;

/** Runs `lass record`; the exit code. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseFlags(
    args,
    {
      out: { type: "string" },
      script: { type: "string" },
    },
    "record",
    true,
  );
  if (values.help) return console.log(RECORD_HELP), 0;
  if (positionals.length !== 1) {
    throw new CliError("give one tool-server id (see lass record --help)");
  }
  if (values.out === undefined) throw new CliError("--out is required (see lass record --help)");
  const [serverId] = positionals;
  const { parseRecordScript } = await import("../core/mcp/recordings/script.ts");
  let script;
  if (values.script !== undefined) {
    let text: string;
    try {
      text = await Deno.readTextFile(values.script);
    } catch (error) {
      throw new CliError(`cannot read ${values.script}: ${(error as Error).message}`);
    }
    try {
      script = parseRecordScript(text, values.script);
    } catch (error) {
      if (error instanceof LassError) throw new CliError(error.message);
      throw error;
    }
  }
  const lass = await openLass(values, RUN_ONCE);
  const stopDeclining = declineQuestions(lass.service, { serverId, command: "record" });
  try {
    const { recordServer } = await import("../core/mcp/recordings/record.ts");
    const { cassetteText } = await import("../core/mcp/recordings/load.ts");
    let recording;
    try {
      recording = await recordServer(lass.service.mcp, serverId, script);
    } catch (error) {
      if (error instanceof LassError) {
        throw new CliError(error.message, error.code === "upstream-error" ? 1 : 2);
      }
      throw error;
    }
    const text = cassetteText(recording.cassette);
    if (values.out === "-") console.log(text.trimEnd());
    else await writeReportFile(values.out, text, "cassette");
    for (const failure of recording.failures) {
      console.error(`✗ ${JSON.stringify(failure.step)}: ${failure.reason}`);
    }
    const { exchanges } = recording.cassette;
    console.error(
      `recorded ${plural(exchanges.length, "exchange")} of ${serverId}${
        values.out === "-" ? "" : ` to ${values.out}`
      }`,
    );
    return recording.failures.length > 0 ? 1 : 0;
  } finally {
    stopDeclining();
    await lass.close();
  }
}
