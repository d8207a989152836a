import { TOOL_VARS, unusedVarWarnings, varsReadIn } from '../compile/unused-vars.js';
import { nodeReadsVar } from '../compile/node-reads-var.js';
import { warnUser } from '../errors/user-warning.js';
import { timeSourcesOf } from '../state/effective-as-of.js';
import type { Session } from './session.js';

/** Each warning once per process: a backfill or a replay runs the engine many times with the same --vars. */
const warned = new Set<string>();

/** The template texts a node renders (its SQL, and its yml properties or test arguments, which may call var()). */
function textsOf(session: Session, id: string): string[] {
  const node = session.manifest.nodes.get(id) ?? session.manifest.tests.get(id);
  if (!node) return [];
  if (node.resourceType === 'model') return [node.file.rawSql, JSON.stringify(node.properties ?? {}), JSON.stringify(node.config)];
  if (node.resourceType === 'test') return [node.rawSql, JSON.stringify(node.args), JSON.stringify(node.config)];
  return [JSON.stringify(node.config)];
}

/** The texts every selection shares (macros, folder configs, the yml as written), once per project: serialising the yml reads each entry's line, which parses its file again. */
const sharedTexts = new WeakMap<Session['project'], string[]>();

/** The vars some node of the manifest reads, once per manifest. */
const knownVars = new WeakMap<Session['manifest'], ReturnType<typeof varsReadIn>>();

/** Warn (stderr) about --vars keys that none of these nodes, no macro and no project config reads. */
export function warnUnusedVars(session: Session, cliVars: Readonly<Record<string, unknown>> | undefined, nodeIds: Iterable<string>): void {
  if (!cliVars || Object.keys(cliVars).length === 0) return;
  // Vars the tool reads itself (as_of, lookback_days, ...) are never reported: when only those are given, there is nothing to look for.
  if (Object.keys(cliVars).every((name) => TOOL_VARS.includes(name))) return;
  const { project, manifest } = session;
  let shared = sharedTexts.get(project);
  if (!shared) {
    // The yml as written (nodes carry their yml values rendered): a source identifier or a description may read a var.
    const yml = [[...project.modelProperties.values()], [...project.seedProperties.values()], project.sources];
    shared = [...project.macros.map((m) => m.source), JSON.stringify([project.modelFolderConfigs, project.seedFolderConfigs, project.testFolderConfigs, yml])];
    sharedTexts.set(project, shared);
  }
  const used = varsReadIn([...shared, ...[...nodeIds].flatMap((id) => textsOf(session, id))]);
  let known = knownVars.get(manifest);
  if (known === undefined) {
    const everyNode = [...manifest.nodes.keys(), ...manifest.tests.keys()];
    known = varsReadIn([...shared, ...everyNode.flatMap((id) => textsOf(session, id))]);
    knownVars.set(manifest, known);
  }
  for (const message of unusedVarWarnings(cliVars, used, known)) {
    if (warned.has(message)) continue;
    warned.add(message);
    warnUser(message);
  }
}

/**
 * `as_of` is mini-dbt's own var, so the check above never reports it; but a
 * selected model that never reads it (nor does anything it is built from)
 * reads every row landed so far, whatever night was asked for: the run is
 * not a replay of that night (its ledger rows record everything landed). One
 * line naming those models (the ones built from a seed or source that
 * declares its loaded_at column: where mini-dbt reasons about time), once
 * per process.
 */
export function warnIgnoredAsOf(session: Session, cliVars: Readonly<Record<string, unknown>> | undefined, nodeIds: Iterable<string>): void {
  const asOf = cliVars?.as_of;
  if (asOf === undefined || asOf === null || asOf === '') return;
  const { manifest, graph } = session;
  const ignoring = [...nodeIds]
    .map((id) => manifest.nodes.get(id))
    .filter((n) => n?.resourceType === 'model' && timeSourcesOf(manifest, graph, n.uniqueId).length > 0 && !nodeReadsVar(manifest, graph, n.uniqueId, 'as_of'))
    .map((n) => n!.name);
  if (ignoring.length === 0) return;
  const shown = ignoring.length > 5 ? `${ignoring.slice(0, 5).join(', ')} and ${ignoring.length - 5} more` : ignoring.join(', ');
  const one = ignoring.length === 1;
  const message = `${one ? 'model' : 'models'} ${shown} ${one ? 'does' : 'do'} not read var 'as_of' (nor does anything ${one ? 'it is' : 'they are'} built from): ${one ? 'it reads' : 'they read'} every row landed so far, not the rows landed by ${String(asOf)}; filter the raw rows on var('as_of') to replay a past night`;
  if (warned.has(message)) return;
  warned.add(message);
  warnUser(message);
}
