/** The code exports type-check against the real npm packages at their pinned versions, for every provider kind. */
import assert from "node:assert/strict";
import { rm } from "node:fs/promises";
import { startService } from "../_helpers.ts";
import { everythingConfig, everyWorkspaceId, exported, runDeno, tempProject } from "../_export.ts";

Deno.test({
  name:
    "sdk-a and graph-a exports of every provider kind pass `deno check` with the pinned packages",
  // The first run downloads the LangChain packages from npm.
  sanitizeResources: false,
  fn: async () => {
    const t = await startService({ config: everythingConfig() });
    let dir: string | undefined;
    try {
      const files: Record<string, string> = {};
      const dependencies: Record<string, string> = {};
      for (const id of everyWorkspaceId()) {
        for (const target of ["sdk-a", "graph-a"]) {
          const result = await exported(t, target, id);
          files[`${target}_${id}.ts`.replaceAll("-", "_")] = result.code;
          for (const [name, version] of Object.entries(result.dependencies)) {
            assert.ok(dependencies[name] === undefined || dependencies[name] === version);
            dependencies[name] = version;
          }
        }
      }
      dir = await tempProject(files, dependencies);
      const { code, stderr } = await runDeno(["check", "--quiet", ...Object.keys(files)], {
        cwd: dir,
      });
      assert.equal(code, 0, stderr);
    } finally {
      await t.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  },
});
