/** The tree checks of the surface: references, the root, cycles, depth and reachability. */
import { extractRefFields } from "@a2ui/web_core/v0_9";
import type { ComponentValidators } from "./catalog.ts";
import type { UiOffer } from "./offer.ts";
import {
  type CheckedCatalog,
  type Entry,
  isRecord,
  listed,
  pointer,
  type Report,
} from "./_entry.ts";

/** The deepest a component tree may be (as the A2UI reference validator allows). */
export const MAX_DEPTH = 50;

/** One edge of the component tree: a reference from a component to a child id. */
interface Edge {
  child: string;
  path: string;
}

/** The child references of one component, per web_core's child-reference markers. */
function edgesOf(entry: Entry, validators: ComponentValidators): Edge[] {
  const validator = validators.get(entry.type!);
  if (!validator) return [];
  const edges: Edge[] = [];
  const fields = extractRefFields(validator.schema) as Map<
    string,
    { kind: "single" | "list" | "nested"; keys?: Set<string> }
  >;
  for (const [key, field] of fields) {
    const value = entry.fields[key];
    const at = `${entry.path}${pointer(key)}`;
    if (field.kind === "single" && typeof value === "string") {
      edges.push({ child: value, path: at });
    }
    if (field.kind === "list") {
      if (Array.isArray(value)) {
        value.forEach((child, i) => {
          if (typeof child === "string") edges.push({ child, path: `${at}/${i}` });
        });
      } else if (isRecord(value) && typeof value.componentId === "string") {
        edges.push({ child: value.componentId, path: `${at}/componentId` });
      }
    }
    if (field.kind === "nested" && Array.isArray(value)) {
      value.forEach((item, i) => {
        if (!isRecord(item)) return;
        for (const sub of field.keys ?? []) {
          if (typeof item[sub] === "string") {
            edges.push({ child: item[sub] as string, path: `${at}/${i}${pointer(sub)}` });
          }
        }
      });
    }
  }
  return edges;
}

/**
 * The tree checks: every reference resolves, exactly one root (repaired when missing), no
 * cycles, at most {@link MAX_DEPTH} deep, every component reachable (unreachable ones dropped
 * when repairing). Returns the components root first, parents before children.
 */
export function checkTree(
  entries: Entry[],
  offered: CheckedCatalog,
  offer: UiOffer,
  report: Report,
): Entry[] | undefined {
  const byId = new Map<string, Entry>();
  for (const entry of entries) if (entry.id !== undefined) byId.set(entry.id, entry);
  const edges = new Map<string, Edge[]>();
  const referenced = new Set<string>();
  for (const entry of byId.values()) {
    const own: Edge[] = [];
    for (const edge of edgesOf(entry, offered.validators)) {
      if (edge.child === entry.id) {
        report("cycle", edge.path, `${entry.id} refers to itself`);
        continue;
      }
      if (!byId.has(edge.child)) {
        report(
          "dangling-reference",
          edge.path,
          `no component has the id "${edge.child}"`,
        );
        continue;
      }
      referenced.add(edge.child);
      own.push(edge);
    }
    edges.set(entry.id!, own);
  }

  if (!byId.has("root")) {
    const tops = [...byId.values()].filter((entry) => !referenced.has(entry.id!));
    const column = offered.components.includes("Column");
    if (offer.repair && tops.length === 1) {
      const top = tops[0];
      byId.delete(top.id!);
      edges.set("root", edges.get(top.id!)!);
      edges.delete(top.id!);
      report(
        "missing-root",
        `${top.path}/id`,
        `no component had the id "root"; the only top-level component "${top.id}" became it`,
        true,
      );
      top.id = "root";
      top.fields.id = "root";
      byId.set("root", top);
    } else if (offer.repair && tops.length > 1 && column) {
      const root: Entry = {
        index: -1,
        path: "/components",
        fields: { id: "root", component: "Column", children: tops.map((entry) => entry.id) },
        id: "root",
        type: "Column",
        valid: true,
      };
      byId.set("root", root);
      entries.unshift(root);
      edges.set(
        "root",
        tops.map((entry) => ({ child: entry.id!, path: "/components" })),
      );
      report(
        "missing-root",
        "/components",
        `no component had the id "root"; the top-level components ${
          listed(tops.map((entry) => entry.id!))
        } were wrapped in a root Column`,
        true,
      );
    } else {
      report(
        "missing-root",
        "/components",
        'exactly one component must have the id "root": the top of the tree',
      );
      return undefined;
    }
  }

  // Cycles: a depth-first walk over every component, marking the ones on the current path.
  const state = new Map<string, "open" | "done">();
  let cyclic = false;
  const visit = (id: string, trail: string[]) => {
    state.set(id, "open");
    for (const edge of edges.get(id) ?? []) {
      const seen = state.get(edge.child);
      if (seen === "open") {
        cyclic = true;
        const loop = [...trail.slice(trail.indexOf(edge.child)), id, edge.child];
        report("cycle", edge.path, `the references form a cycle: ${loop.join(" → ")}`);
      } else if (seen === undefined) visit(edge.child, [...trail, id]);
    }
    state.set(id, "done");
  };
  visit("root", []);
  for (const id of byId.keys()) if (!state.has(id)) visit(id, []);
  if (cyclic) return undefined;

  // Depth: the longest path from the root (the graph has no cycles now).
  const height = new Map<string, number>();
  const heightOf = (id: string): number => {
    let known = height.get(id);
    if (known === undefined) {
      known = 1 + Math.max(0, ...(edges.get(id) ?? []).map((edge) => heightOf(edge.child)));
      height.set(id, known);
    }
    return known;
  };
  if (heightOf("root") > MAX_DEPTH) {
    let id = "root";
    let edge: Edge | undefined;
    for (let level = 1; level <= MAX_DEPTH; level++) {
      edge = (edges.get(id) ?? []).reduce((a, b) => heightOf(a.child) >= heightOf(b.child) ? a : b);
      id = edge.child;
    }
    report("too-deep", edge!.path, `the tree is deeper than ${MAX_DEPTH} levels`);
    return undefined;
  }

  // Reachability, breadth first from the root: parents before children.
  const order: Entry[] = [];
  const depth = new Set<string>(["root"]);
  const queue = ["root"];
  while (queue.length > 0) {
    const id = queue.shift()!;
    order.push(byId.get(id)!);
    for (const edge of edges.get(id) ?? []) {
      if (depth.has(edge.child)) continue;
      depth.add(edge.child);
      queue.push(edge.child);
    }
  }
  for (const entry of byId.values()) {
    if (depth.has(entry.id!)) continue;
    report(
      "unreachable-component",
      entry.path,
      offer.repair
        ? `"${entry.id}" is not reachable from the root; it was dropped`
        : `"${entry.id}" is not reachable from the root`,
      offer.repair,
    );
  }
  return order;
}
