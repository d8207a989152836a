/**
 * One cold process for the compile figures:
 *
 *   node dist/bench/compile-plan-child.js compile|parse <projectDir>
 *
 * `compile` is the compile API (load, capture, graph, then render and plan
 * every model, writing target/compiled and target/run); `parse` is the load
 * every command starts with (project files, pass-1 capture, graph). Prints one
 * JSON line: the API call's milliseconds, milliseconds since the process
 * started, and the number of models.
 */
const [mode, projectDir] = process.argv.slice(2);
if ((mode !== 'compile' && mode !== 'parse') || !projectDir) {
  process.stderr.write('usage: compile-plan-child.js compile|parse <projectDir>\n');
  process.exit(2);
}
const { compile, loadSession } = await import('../src/index.js');
const t0 = performance.now();
const models = mode === 'compile' ? compile({ projectDir }).length : loadSession({ projectDir }).manifest.models.size;
const ms = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ ms, sinceStartMs: performance.now(), models })}\n`);
