/**
 * Shards of an eval: `i/n` read from a flag or a field, the slice of the runs it takes, and the
 * plan a shard report records so that `--merge` joins only the shards of one plan.
 */
import { createHash } from "node:crypto";
import { LassError } from "../errors.ts";
import type { EvalShard } from "../../wire/evals.ts";
import type { EvalFile } from "./file.ts";

/** One slice of `count` (1-based `index`). */
export interface Shard {
  index: number;
  count: number;
}

/**
 * Reads `i/n` (1 ≤ i ≤ n). A bad value is 400 `invalid-request` whose message names `path` (the
 * flag or field) and what is wrong, e.g. `--shard 3/2: the index must be between 1 and 2`.
 */
export function parseShard(text: string, path = "shard"): Shard {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  const problem = !match
    ? "must be i/n, the i-th of n slices (e.g. 2/4)"
    : count < 1
    ? "the count must be at least 1"
    : index < 1 || index > count
    ? `the index must be between 1 and ${count}`
    : undefined;
  if (problem) {
    throw new LassError("invalid-request", `${path} ${text}: ${problem}`, [
      { path, message: problem },
    ]);
  }
  return { index, count };
}

/**
 * The `index`-th of `count` contiguous, nearly equal slices of the runs in their stable order
 * (case, model, repeat): every run falls in exactly one slice, and a slice stays the same while
 * the file, the models and the repeat count do.
 */
export function shardOf<T>(runs: T[], shard: Shard): T[] {
  const [from, to] = sliceBounds(runs.length, shard);
  return runs.slice(from, to);
}

/** Where the slice of a shard starts and ends among `total` runs. */
export function sliceBounds(total: number, shard: Shard): [number, number] {
  return [
    Math.floor(((shard.index - 1) * total) / shard.count),
    Math.floor((shard.index * total) / shard.count),
  ];
}

/** A value as JSON with the keys of every object sorted, so equal content gives equal text. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(
    value,
    (_key, item) =>
      typeof item === "object" && item !== null && !Array.isArray(item)
        ? Object.fromEntries(Object.keys(item).sort().map((key) => [key, item[key]]))
        : item,
  );
}

/** `sha256:<hex>` of an eval file's content as parsed (the same whether YAML or JSON). */
export function evalHash(file: EvalFile): string {
  return `sha256:${createHash("sha256").update(canonicalJson(file)).digest("hex")}`;
}

/** What a shard report records: its slice and the plan the slice is cut from. */
export function shardRecord(
  shard: Shard,
  plan: { file: EvalFile; models: string[]; repeat: number; totalRuns: number },
): EvalShard {
  return {
    index: shard.index,
    count: shard.count,
    evalHash: evalHash(plan.file),
    models: plan.models,
    repeat: plan.repeat,
    totalRuns: plan.totalRuns,
  };
}
