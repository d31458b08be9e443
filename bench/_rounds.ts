/**
 * Side by side on a shared machine: rounds of one block of sequential calls to each side, in
 * rotating order, so that a busy or quiet moment hits every side alike and each round can be
 * compared within itself.
 */

/** One block of sequential calls: each call's milliseconds, and the block's own. */
export interface Block {
  times: number[];
  ms: number;
}

/** How many rounds, calls per block, and warm-up calls per side before the first round. */
export interface RoundsOptions {
  rounds: number;
  block: number;
  warmup: number;
}

/** The blocks of each round, one per side in the order `sides` were given. */
export async function blockRounds(
  sides: (() => Promise<unknown>)[],
  options: RoundsOptions,
): Promise<Block[][]> {
  for (const call of sides) await timedBlock(options.warmup, call);
  const rounds: Block[][] = [];
  for (let round = 0; round < options.rounds; round++) {
    const blocks: Block[] = new Array(sides.length);
    for (let i = 0; i < sides.length; i++) {
      const which = (round + i) % sides.length;
      blocks[which] = await timedBlock(options.block, sides[which]);
    }
    rounds.push(blocks);
  }
  return rounds;
}

async function timedBlock(calls: number, call: () => Promise<unknown>): Promise<Block> {
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < calls; i++) {
    const before = performance.now();
    await call();
    times.push(performance.now() - before);
  }
  return { times, ms: performance.now() - started };
}
