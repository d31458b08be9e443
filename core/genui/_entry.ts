/** What the surface checks share: a component entry, the problem reporter, JSON pointers. */
import type { ComponentValidators } from "./catalog.ts";
import type { OfferedCatalog } from "./offer.ts";

/** A JSON object. */
export type Json = Record<string, unknown>;

/** A component being checked: its place in the input and its (repaired) fields. */
export interface Entry {
  index: number;
  path: string;
  fields: Json;
  id?: string;
  type?: string;
  /** The props passed the catalog's schema (after repairs). */
  valid: boolean;
}

/** The catalog a surface is checked against: as the workspace offers it, its validators loaded. */
export interface CheckedCatalog extends OfferedCatalog {
  validators: ComponentValidators;
}

/** Records a problem; `repaired` when it was fixed. */
export type Report = (code: string, path: string, message: string, repaired?: boolean) => void;

/** Escapes one JSON-pointer segment. */
function segment(key: string | number): string {
  return String(key).replace(/~/g, "~0").replace(/\//g, "~1");
}

/** A JSON pointer from segments. */
export function pointer(...parts: (string | number)[]): string {
  return parts.map((part) => `/${segment(part)}`).join("");
}

/** Whether a value is a plain JSON object. */
export function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Lowercase letters and digits only: how enum values are compared for a repair. */
export function loose(value: string): string {
  return value.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Clips a list of names for a message. */
export function listed(names: string[], max = 24): string {
  const shown = names.slice(0, max).join(", ");
  return names.length > max ? `${shown} and ${names.length - max} more` : shown;
}
