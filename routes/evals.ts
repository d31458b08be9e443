/**
 * Evals over HTTP: `POST /api/evals/run` streams an eval's progress and report as NDJSON,
 * `GET /api/evals/files[/:name]` lists and reads the eval files beside the config file,
 * `GET /api/evals/reports[/:id[/diff]]` lists, reads and compares the kept reports,
 * `POST /api/evals/cases` makes a case of a stored chat and `POST /api/evals/files/:name/cases`
 * adds a case to one of those files.
 */
import { z } from "zod";
import type { FileSystem } from "../core/files.ts";
import { SESSION_ID_PATTERN } from "../core/sessions.ts";
import { readBody, validateQuery } from "./body.ts";
import type { Routes } from "./context.ts";
import { json } from "./http.ts";
import { ndjsonGeneratorResponse } from "./ndjson.ts";

/** The body of `POST /api/evals/run` (see `wire/evals.ts`). */
const EvalRunBodySchema = z.strictObject({
  /** The eval as an object, or its text (YAML or JSON). */
  eval: z.union([z.record(z.string(), z.unknown()), z.string()]),
  models: z.array(z.string().min(1)).min(1).optional(),
  repeat: z.int().min(1).max(1000).optional(),
  concurrency: z.int().min(1).max(64).optional(),
  shard: z.string().optional(),
  approve: z.enum(["all", "none"]).optional(),
});

/** `GET /api/evals/reports/:id/diff`'s query: the kept report to compare with (`token` too). */
const DiffQuery = z.object({ baseline: z.string().min(1) });
/** The body of `POST /api/evals/cases` (see `wire/evals.ts`). */
const EvalCaseBodySchema = z.strictObject({
  sessionId: z.string().regex(SESSION_ID_PATTERN, {
    message: "a session id is 1-128 letters, digits, '_' or '-'",
  }),
  turns: z.array(z.int().min(0)).min(1).optional(),
  name: z.string().max(500).optional(),
});

/** The body of `POST /api/evals/files/:name/cases` (see `wire/evals.ts`). */
const EvalCaseSaveBodySchema = z.strictObject({
  case: z.union([z.record(z.string(), z.unknown()), z.string().min(1)]),
  workspace: z.string().min(1).optional(),
  models: z.array(z.string().min(1)).optional(),
});

/** The file access of the eval folder routes: `node:fs`, loaded on first use. */
async function nodeFs(): Promise<FileSystem> {
  return (await import("../core/files_node.ts")).nodeFileSystem;
}

/** Eval routes. */
export const evalRoutes: Routes = {
  "/api/evals/run": {
    POST: async (req, { service }) => {
      const body = await readBody(req, EvalRunBodySchema);
      const { readEvalText } = await import("../core/evals/file.ts");
      const value = typeof body.eval === "string"
        ? readEvalText(body.eval, "eval.yaml", "eval")
        : body.eval;
      // The AI SDK loads with the first run, not at startup.
      const { checkEval } = await import("../core/evals/check.ts");
      const { parseShard } = await import("../core/evals/shard.ts");
      const { prepareEval } = await import("../core/evals/runner.ts");
      const { evalLines } = await import("../core/evals/lines.ts");
      // Every problem is a 400 here, before anything streams.
      const options = { models: body.models, pathPrefix: "eval" };
      const { file, warnings } = checkEval(service, value, options);
      const prepared = prepareEval(service, file, {
        ...options,
        repeat: body.repeat,
        concurrency: body.concurrency,
        shard: body.shard === undefined ? undefined : parseShard(body.shard),
        approve: body.approve,
      });
      // A client that goes away cancels the body stream, which stops the runs.
      const abort = new AbortController();
      return ndjsonGeneratorResponse(
        evalLines(prepared, { signal: abort.signal, warnings }),
        () => abort.abort(new DOMException("the client went away", "AbortError")),
      );
    },
  },
  "/api/evals/reports": {
    GET: async (_req, { service }) => json({ reports: await service.evalReports.list() }),
  },
  "/api/evals/reports/:id": {
    GET: async (_req, { service, params }) => json(await service.evalReports.read(params.id)),
  },
  "/api/evals/reports/:id/diff": {
    GET: async (_req, { service, params, url }) => {
      const { baseline } = validateQuery(DiffQuery, url);
      const [current, base] = await Promise.all([
        service.evalReports.read(params.id),
        service.evalReports.read(baseline),
      ]);
      const { diffReports } = await import("../core/evals/diff.ts");
      return json(diffReports(base, current));
    },
  },
  "/api/evals/files": {
    GET: async (_req, { service }) => {
      const { listEvalFiles } = await import("../core/evals/folder.ts");
      return json(await listEvalFiles(await nodeFs(), service.config.path));
    },
  },
  "/api/evals/cases": {
    POST: async (req, { service }) => {
      const body = await readBody(req, EvalCaseBodySchema);
      const { caseDraft } = await import("../core/evals/from_session.ts");
      return json(caseDraft(await service.sessions.get(body.sessionId), body));
    },
  },
  "/api/evals/files/:name/cases": {
    POST: async (req, { service, params }) => {
      const body = await readBody(req, EvalCaseSaveBodySchema);
      const { saveCaseInFolder } = await import("../core/evals/save.ts");
      const { defaultWorkspace } = await import("../core/config/workspaces.ts");
      const saved = await saveCaseInFolder(await nodeFs(), service.config.path, params.name, body, {
        defaultWorkspace: defaultWorkspace(service.config.config)?.id,
      });
      return json(saved, { status: saved.created ? 201 : 200 });
    },
  },
  "/api/evals/files/:name": {
    GET: async (_req, { service, params }) => {
      const { readEvalFile } = await import("../core/evals/folder.ts");
      return json(await readEvalFile(await nodeFs(), service.config.path, params.name));
    },
  },
};
