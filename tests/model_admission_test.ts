/**
 * Model-run admission (`core/chat/model_admission.ts`): the policy, fed its CPU samples by the
 * test (`observe`), so nothing here depends on how busy the machine is.
 */
import assert from "node:assert/strict";
import { ModelAdmission } from "../core/chat/model_admission.ts";

/** Enters `count` runs and answers their leaves in the order they were admitted. */
function enterMany(admission: ModelAdmission, count: number) {
  const admitted: (() => void)[] = [];
  const entered = Array.from(
    { length: count },
    () => admission.enter().then((leave) => void admitted.push(leave)),
  );
  return { admitted, entered };
}

/** Lets every settled promise's reactions run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

Deno.test("runs up to the limit start at once; the others wait in order and start as runs leave", async () => {
  const admission = new ModelAdmission({ floor: 2, initial: 3, sampleMs: 60_000 });
  const { admitted } = enterMany(admission, 5);
  await settle();
  assert.equal(admitted.length, 3);
  assert.deepEqual(admission.load, { active: 3, waiting: 2, limit: 3 });
  admitted[0]();
  admitted[0](); // a second leave of the same run changes nothing
  await settle();
  assert.deepEqual(admission.load, { active: 3, waiting: 1, limit: 3 });
  for (const leave of admitted.slice(1)) leave();
  await settle();
  assert.equal(admitted.length, 5);
  for (const leave of admitted.slice(3)) leave();
  assert.deepEqual(admission.load, { active: 0, waiting: 0, limit: 3 });
});

Deno.test("a busy CPU shrinks the limit, never below the floor; an idle one grows it while runs wait", async () => {
  const admission = new ModelAdmission({ floor: 2, initial: 8, sampleMs: 60_000 });
  const { admitted } = enterMany(admission, 20);
  await settle();
  assert.equal(admitted.length, 8);
  admission.observe(1);
  assert.equal(admission.load.limit, 6);
  for (let i = 0; i < 10; i++) admission.observe(1);
  assert.equal(admission.load.limit, 2, "the floor holds");
  // Idle samples while runs wait grow the limit and admit the waiting runs at once.
  for (const leave of admitted.splice(0, 8)) leave();
  await settle();
  assert.equal(admission.load.active, 2);
  admission.observe(0.1);
  await settle();
  assert.equal(admission.load.limit, 3);
  assert.equal(admission.load.active, 3);
  // An idle sample with nobody waiting leaves the limit as it is.
  const limit = admission.load.limit;
  while (admission.load.waiting > 0) admission.observe(0.1);
  admission.observe(0.1);
  assert.ok(admission.load.limit >= limit);
  await settle();
  for (const leave of admitted) leave();
  assert.equal(admission.load.active, 0);
});

Deno.test("a waiting run whose signal aborts leaves the queue with the signal's reason", async () => {
  const admission = new ModelAdmission({ floor: 1, initial: 1, sampleMs: 60_000 });
  const first = await admission.enter();
  const abort = new AbortController();
  const waiting = admission.enter(abort.signal);
  const next = admission.enter();
  assert.equal(admission.load.waiting, 2);
  abort.abort(new Error("the client went away"));
  await assert.rejects(waiting, /the client went away/);
  assert.equal(admission.load.waiting, 1);
  first();
  (await next)();
  await assert.rejects(admission.enter(abort.signal), /the client went away/);
  assert.deepEqual(admission.load, { active: 0, waiting: 0, limit: 1 });
});

Deno.test("the load is sampled only while runs are active: an idle admission holds no timer", async () => {
  // Deno's test sanitizers fail this test if a timer outlives the last run.
  const admission = new ModelAdmission({ sampleMs: 5 });
  const leave = await admission.enter();
  await new Promise((resolve) => setTimeout(resolve, 20));
  leave();
});
