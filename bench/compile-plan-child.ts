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
 * milliseconds since the process started, and the number of models.
 */
const [mode, projectDir] = process.argv.slice(2);
if ((mode !== 'plan' && mode !== 'compile') || !projectDir) {
  process.stderr.write('usage: compile-plan-child.js plan|compile <projectDir>\n');
  process.exit(2);
}
// @ts-ignore: the bundle is built next to dist/bench (typed by src/index.ts)
const { compile } = (await import('../bundle/index.js')) as typeof import('../src/index.js');
const t0 = performance.now();
const models = compile({ projectDir, writeArtifacts: mode === 'compile' }).length;
const ms = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ ms, sinceStartMs: performance.now(), models })}\n`);
