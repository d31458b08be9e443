/**
 * `POST /api/export`: the server's types, re-exported as types only, so a browser bundle never
 * contains server code.
 */
export type { ExportEnvVar, ExportResult } from "../core/export/export.ts";
export type { ExportTarget } from "../core/export/targets.ts";
