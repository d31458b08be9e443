import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { chatConfig } from "../_chat.ts";
import { cliHome, runLass } from "../_cli.ts";
import { FIRST_DESCRIPTION, RESTARTED_DESCRIPTION } from "../fixtures/drifting_server.ts";

const FIXTURE = new URL("../fixtures/drifting_server.ts", import.meta.url).pathname;

/** A config home whose workspace uses the drifting server (it changes `echo` on its second start). */
async function driftingHome() {
  const home = await cliHome({});
  const server = {
    id: "drift",
    name: "Drifting",
    transport: "stdio",
    command: Deno.execPath(),
    args: ["run", "-A", FIXTURE, "--starts", join(home.dir, "starts.txt")],
    protocolEra: "legacy",
  };
  await writeFile(home.configPath, JSON.stringify(chatConfig({ servers: [server] })));
  return home;
}

Deno.test("lass check --lock pins the servers; a tool changed on restart fails the next check with its diffs; --update accepts it", async () => {
  const home = await driftingHome();
  const lockPath = join(home.dir, "lass.lock.json");
  try {
    const written = await runLass(["check", ...home.args, "--lock"]);
    assert.equal(written.code, 0, written.stdout + written.stderr);
    assert.match(written.stdout, /^wrote .*lass\.lock\.json: 1 server$/m);
    const lock = JSON.parse(await readFile(lockPath, "utf8"));
    assert.equal(lock.lockfileVersion, 1);
    assert.equal(lock.servers.drift.name, "drifting");
    assert.equal(lock.servers.drift.version, "1.0.0");
    assert.equal(lock.servers.drift.tools.echo.definition.description, FIRST_DESCRIPTION);
    assert.match(lock.servers.drift.tools.echo.sha256, /^[0-9a-f]{64}$/);

    // The second start of the server changes `echo`: the lock beside the config is compared.
    const drifted = await runLass(["check", ...home.args, "--json"]);
    assert.equal(drifted.code, 1, drifted.stdout + drifted.stderr);
    const report = JSON.parse(drifted.stdout);
    const server = report.servers.find((s: { id: string }) => s.id === "drift");
    assert.equal(server.pins.status, "drifted");
    assert.deepEqual(server.problems.map((p: { subject: string }) => p.subject), ["tool echo"]);

    const text = await runLass(["check", ...home.args]);
    assert.equal(text.code, 1, text.stdout + text.stderr);
    assert.match(
      text.stdout,
      /^error: server drift: tool echo: changed since pinned in lass\.lock\.json \(lass check --update accepts it\)$/m,
    );
    assert.match(text.stdout, /^server drift: tool echo changed$/m);
    assert.match(
      text.stdout,
      /^ {2}description: Returns the text \{\+and mails a copy to the address in copyTo\+\}$/m,
    );
    assert.match(text.stdout, /^ {4}\+ \/inputSchema\/properties\/copyTo: \{"type":"string"\}$/m);
    assert.match(text.stdout, /^server drift: version drifting 1\.0\.0 → drifting 1\.1\.0$/m);

    const updated = await runLass(["check", ...home.args, "--update"]);
    assert.equal(updated.code, 0, updated.stdout + updated.stderr);
    const relocked = JSON.parse(await readFile(lockPath, "utf8"));
    assert.equal(relocked.servers.drift.tools.echo.definition.description, RESTARTED_DESCRIPTION);
    const passed = await runLass(["check", ...home.args]);
    assert.equal(passed.code, 0, passed.stdout + passed.stderr);
    assert.match(passed.stdout, /^compared with .*lass\.lock\.json: 1 server$/m);
  } finally {
    await home.close();
  }
});

Deno.test("lass check --lock <file> uses that file; an unreadable lock is exit 1 naming it", async () => {
  const home = await driftingHome();
  const lockPath = join(home.dir, "pins", "my.lock.json");
  try {
    const written = await runLass(["check", ...home.args, "--lock", lockPath]);
    assert.equal(written.code, 0, written.stdout + written.stderr);
    assert.ok(JSON.parse(await readFile(lockPath, "utf8")).servers.drift);
    await writeFile(join(home.dir, "lass.lock.json"), "{not json");
    const broken = await runLass(["check", ...home.args]);
    assert.equal(broken.code, 1, broken.stdout + broken.stderr);
    assert.match(broken.stderr, /lass: .*lass\.lock\.json is not JSON/);
  } finally {
    await home.close();
  }
});
