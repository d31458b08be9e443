/** The property checks of the surface: each component against its catalog's zod schema. */
import type { ComponentValidator } from "./catalog.ts";
import type { UiOffer } from "./offer.ts";
import {
  type CheckedCatalog,
  type Entry,
  isRecord,
  type Json,
  listed,
  loose,
  pointer,
  type Report,
} from "./_entry.ts";

/** Checks each component's type and properties against the catalog, repairing what is safe. */
export function checkProps(
  entries: Entry[],
  offered: CheckedCatalog,
  offer: UiOffer,
  report: Report,
): void {
  const { catalog, validators } = offered;
  for (const entry of entries) {
    if (!entry.type) continue;
    const at = `${entry.path}/component`;
    if (!offered.components.includes(entry.type)) {
      if (offer.denied.has(entry.type) || validators.has(entry.type)) {
        report("denied-component", at, `${entry.type} is not allowed in this workspace`);
      } else {
        const elsewhere = offer.catalogs.find((other) => other.components.includes(entry.type!));
        report(
          "unknown-component",
          at,
          elsewhere
            ? `${entry.type} belongs to the catalog ${elsewhere.catalog.catalogId}; one surface ` +
              `uses one catalog (${catalog.catalogId})`
            : `${entry.type} is not a component of ${catalog.catalogId}; use one of ${
              listed(offered.components)
            }`,
        );
      }
      continue;
    }
    entry.valid = checkComponentProps(entry, validators.get(entry.type)!, offer.repair, report);
  }
}

/** Validates one component's props with its zod schema; repairs unknown keys and enum case. */
function checkComponentProps(
  entry: Entry,
  validator: ComponentValidator,
  repair: boolean,
  report: Report,
): boolean {
  const { id, component, ...props } = entry.fields;
  // v0.8 children: {"explicitList": [...]}
  if (repair && isRecord(props.children) && Array.isArray(props.children.explicitList)) {
    props.children = props.children.explicitList;
    report(
      "children-unwrapped",
      `${entry.path}/children`,
      "the v0.8 form {explicitList: [...]} was made a plain list",
      true,
    );
  }
  for (let round = 0; round < 4; round++) {
    const parsed = validator.schema.safeParse(props);
    if (parsed.success) {
      entry.fields = { id, component, ...props };
      return true;
    }
    const issues = parsed.error.issues as ZodIssue[];
    const fixes = repair ? issues.flatMap((issue) => repairOf(issue, props)) : [];
    if (fixes.length === 0 || round === 3) {
      for (const issue of issues) reportIssue(issue, entry, props, report);
      entry.fields = { id, component, ...props };
      return false;
    }
    for (const fix of fixes) {
      fix.apply();
      report(fix.code, `${entry.path}${pointer(...fix.path)}`, fix.message, true);
    }
  }
  return false;
}

/** A zod 3 issue, as web_core's schemas produce them. */
interface ZodIssue {
  code: string;
  path: (string | number)[];
  message: string;
  keys?: string[];
  options?: unknown[];
  received?: unknown;
  expected?: unknown;
  unionErrors?: { issues: ZodIssue[] }[];
}

/** A repair for one issue: drop unknown keys, or fix an enum value's case or separators. */
function repairOf(
  issue: ZodIssue,
  props: Json,
): { code: string; path: (string | number)[]; message: string; apply: () => void }[] {
  const holder = valueAt(props, issue.path.slice(0, -1));
  const key = issue.path.at(-1);
  if (issue.code === "unrecognized_keys") {
    const target = valueAt(props, issue.path);
    if (!isRecord(target)) return [];
    return (issue.keys ?? []).map((name) => ({
      code: "unknown-property",
      path: [...issue.path, name],
      message: "is not a property of this component; it was dropped",
      apply: () => delete target[name],
    }));
  }
  if (
    issue.code === "invalid_enum_value" && typeof issue.received === "string" &&
    key !== undefined && (isRecord(holder) || Array.isArray(holder))
  ) {
    const match = (issue.options ?? []).find((option) =>
      typeof option === "string" && loose(option) === loose(issue.received as string)
    );
    if (match === undefined) return [];
    return [{
      code: "invalid-enum",
      path: issue.path,
      message: `"${issue.received}" was changed to "${match}"`,
      apply: () => {
        (holder as Record<string | number, unknown>)[key] = match;
      },
    }];
  }
  return [];
}

/** The value at a path inside an object. */
function valueAt(root: unknown, path: (string | number)[]): unknown {
  let current = root;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** Reports one zod issue as a problem with a JSON pointer. */
function reportIssue(issue: ZodIssue, entry: Entry, props: Json, report: Report): void {
  const base = `${entry.path}${pointer(...issue.path)}`;
  const absent = issue.path.length > 0 && valueAt(props, issue.path) === undefined;
  if (absent && (issue.code === "invalid_type" || issue.code === "invalid_union")) {
    report("missing-property", base, `${entry.type} requires this property`);
    return;
  }
  switch (issue.code) {
    case "unrecognized_keys":
      for (const key of issue.keys ?? []) {
        report(
          "unknown-property",
          `${base}${pointer(key)}`,
          `is not a property of ${entry.type}`,
        );
      }
      return;
    case "invalid_type":
      report("invalid-value", base, `must be ${issue.expected}, not ${issue.received}`);
      return;
    case "invalid_enum_value":
      report(
        "invalid-enum",
        base,
        `${JSON.stringify(issue.received)} is not one of ${
          (issue.options ?? []).map((o) => JSON.stringify(o)).join(", ")
        }`,
      );
      return;
    case "invalid_union":
      report("invalid-value", base, unionMessage(issue));
      return;
    default:
      report("invalid-value", base, issue.message);
  }
}

/** A union mismatch in words: a literal, a `{path}` binding or a `{call}` function call. */
function unionMessage(issue: ZodIssue): string {
  const expected = new Set<string>();
  for (const branch of issue.unionErrors ?? []) {
    for (const inner of branch.issues) {
      if (inner.path.length === issue.path.length && inner.code === "invalid_type") {
        expected.add(String(inner.expected));
      }
    }
  }
  const literal = [...expected].filter((type) => type !== "object");
  const forms = [
    ...(literal.length > 0 ? [`a ${literal.join(" or ")}`] : []),
    ...(expected.has("object") ? ['an object such as {"path": "/pointer"}'] : []),
  ];
  return forms.length > 0
    ? `must be ${forms.join(", or ")}`
    : "does not match any allowed form of this property";
}
