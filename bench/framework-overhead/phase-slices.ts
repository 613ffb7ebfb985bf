/** What a server's calls measured in one phase (one tool, one concurrency, one round). */
export interface Phase {
  callsPerSecond: number;
  latenciesMs: number[];
  cpuMsPerCall: number;
  errors: number;
}

/** One slice of a phase: the calls that succeeded, in how long, at what CPU, and how many failed. */
export interface Slice {
  calls: number;
  elapsedMs: number;
  latenciesMs: number[];
  cpuMs: number;
  errors: number;
}

/**
 * The phase a server's slices add up to: its calls over its time (not a mean of the slices'
 * rates, which would weigh a short slice like a long one), its CPU over its calls (NaN without a
 * call), every latency, every failure.
 */
export function phaseOfSlices(slices: readonly Slice[]): Phase {
  let calls = 0;
  let elapsedMs = 0;
  let cpuMs = 0;
  let errors = 0;
  for (const slice of slices) {
    calls += slice.calls;
    elapsedMs += slice.elapsedMs;
    cpuMs += slice.cpuMs;
    errors += slice.errors;
  }
  return {
    callsPerSecond: elapsedMs === 0 ? NaN : calls / (elapsedMs / 1000),
    latenciesMs: slices.flatMap((slice) => slice.latenciesMs),
    cpuMsPerCall: calls === 0 ? NaN : cpuMs / calls,
    errors,
  };
}

/**
 * Runs `measure` for every server `slices` times, the servers taking turns (A B C A B C …), and
 * returns each server's slices in the order of `servers`.
 */
export async function inTurns<Server>(
  servers: readonly Server[],
  slices: number,
  measure: (server: Server) => Promise<Slice>,
): Promise<Slice[][]> {
  const taken: Slice[][] = servers.map(() => []);
  for (let slice = 0; slice < slices; slice++)
    for (const [index, server] of servers.entries()) taken[index].push(await measure(server));
  return taken;
}
