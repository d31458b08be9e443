/** Helpers of the eval tests. */
import assert from "node:assert/strict";
import { LassError } from "../core/errors.ts";

/** The details of the 400 `invalid-request` that `run` throws, failing when it does not throw one. */
export function problems(run: () => unknown): { path: string; message: string }[] {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof LassError, `a LassError, not ${error}`);
    assert.equal(error.code, "invalid-request");
    return error.details ?? [];
  }
  assert.fail("the eval was accepted");
}
