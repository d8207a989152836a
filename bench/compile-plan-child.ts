/**
 * One cold process for the compile figures:
 *
 *   node dist/bench/compile-plan-child.js plan|compile <projectDir>
 *
 * Runs the compile API as a script gets it from the package (its main, the
 * bundled library): load the project, capture, graph, then render and plan
 * every model;
 * `compile` also writes target/compiled and target/run (two files a model),
 * `plan` does not. Prints one JSON line: the API call's milliseconds,
 * milliseconds since the process started, the number of models, the
 * milliseconds spent in each phase (the API's onPhase tells when each starts;
 * render and plan alternate model by model and are summed), and the garbage
 * collector's pauses inside the call (a PerformanceObserver for 'gc': their
 * total, the young-generation scavenges' part and count; they are inside the
 * phases' times too).
 */
import { PerformanceObserver, constants, type PerformanceEntry } from 'node:perf_hooks';

const [mode, projectDir] = process.argv.slice(2);
if ((mode !== 'plan' && mode !== 'compile') || !projectDir) {
  process.stderr.write('usage: compile-plan-child.js plan|compile <projectDir>\n');
  process.exit(2);
}
// @ts-ignore: the bundle is built next to dist/bench (typed by src/index.ts)
const { compile } = (await import('../bundle/index.js')) as typeof import('../src/index.js');

const gcEntries: PerformanceEntry[] = [];
const observer = new PerformanceObserver((list) => gcEntries.push(...list.getEntries()));
observer.observe({ entryTypes: ['gc'] });

const phases: Record<string, number> = {};
let current: string | undefined;
let since = 0;
const onPhase = (phase: string): void => {
  const now = performance.now();
  if (current !== undefined) phases[current] = (phases[current] ?? 0) + now - since;
  current = phase;
  since = now;
};

const t0 = performance.now();
const models = compile({ projectDir, writeArtifacts: mode === 'compile', onPhase }).length;
const t1 = performance.now();
onPhase('done');
const ms = t1 - t0;
// The observer hears of the last collections after the call returns.
await new Promise((done) => setTimeout(done, 0));
observer.disconnect();
const inCall = gcEntries.filter((e) => e.startTime >= t0 && e.startTime < t1);
const minor = inCall.filter((e) => ((e as { detail?: { kind?: number } }).detail)?.kind === constants.NODE_PERFORMANCE_GC_MINOR);
const sum = (entries: readonly PerformanceEntry[]) => entries.reduce((total, e) => total + e.duration, 0);
const gc = { ms: sum(inCall), count: inCall.length, scavengeMs: sum(minor), scavenges: minor.length };
process.stdout.write(`${JSON.stringify({ ms, sinceStartMs: performance.now(), models, phases, gc })}\n`);
