import type { Manifest, ModelNode, SnapshotNode } from './manifest.js';
import { refModelKey } from './versioned-ref.js';

/** dbt's event names: --warn-error-options can silence them by name. */
export type DeprecationEvent = 'DeprecatedModel' | 'DeprecatedReference' | 'UpcomingReferenceDeprecation';

export interface DeprecationWarning {
  readonly event: DeprecationEvent;
  readonly message: string;
}

/** A model's deprecation_date as written: its version's (or its model's, which versions inherit), or an unversioned model's. */
export function deprecationDateOf(node: ModelNode): string | undefined {
  return node.file.version?.deprecationDate ?? node.properties?.deprecationDate;
}

/**
 * When a deprecation_date falls: a date is midnight UTC, a date and time without an offset is read as
 * UTC (dbt reads it in the machine's zone; a run's time here never depends on the machine's zone).
 * Undefined for text that is no date.
 */
export function deprecationTime(text: string): Date | undefined {
  const trimmed = text.trim();
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(trimmed) || /^\d{4}-\d{2}-\d{2}$/.test(trimmed) ? trimmed : `${trimmed.replace(' ', 'T')}Z`;
  const time = new Date(/^\d{4}-\d{2}-\d{2}$/.test(zoned) ? `${zoned}T00:00:00Z` : zoned);
  return Number.isNaN(time.getTime()) ? undefined : time;
}

/** The date as a message shows it: the day alone when it is midnight UTC. */
function shown(text: string): string {
  const time = deprecationTime(text);
  if (!time) return text;
  const iso = time.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('T', ' ').replace('.000Z', '+00:00');
}

const nameWithVersion = (node: ModelNode): string => (node.file.version ? `${node.file.version.modelName}.v${String(node.file.version.v)}` : node.name);

/**
 * dbt's warnings about model deprecation for the nodes a run builds, at the run's start time `now`
 * (RunContext.startedAt, never the wall clock here):
 * - DeprecatedModel: a model built whose deprecation_date has passed;
 * - DeprecatedReference / UpcomingReferenceDeprecation: a model or snapshot built that refs a model
 *   whose deprecation_date has passed / is still to come, with dbt's hint of the latest version when
 *   an older one is referenced.
 */
export function modelDeprecationWarnings(manifest: Manifest, nodeIds: Iterable<string>, now: Date): DeprecationWarning[] {
  const deprecated = [...manifest.models.values()].filter((m) => deprecationDateOf(m) !== undefined);
  if (deprecated.length === 0) return [];
  const snapshots = new Map<string, SnapshotNode>([...(manifest.snapshots?.values() ?? [])].map((s) => [s.uniqueId, s]));
  const passed = (date: string) => {
    const time = deprecationTime(date);
    return time !== undefined && time.getTime() < now.getTime();
  };
  const out: DeprecationWarning[] = [];
  for (const id of nodeIds) {
    const node = manifest.nodes.get(id) ?? snapshots.get(id);
    if (!node || (node.resourceType !== 'model' && node.resourceType !== 'snapshot')) continue;
    const ownPackage = node.fqn[0] ?? manifest.project.name;
    if (node.resourceType === 'model') {
      const date = deprecationDateOf(node);
      if (date !== undefined && passed(date)) {
        out.push({ event: 'DeprecatedModel', message: `Model ${nameWithVersion(node)} has passed its deprecation date of ${shown(date)}. This model should be disabled or removed.` });
      }
    }
    const referrer = node.resourceType === 'model' ? nameWithVersion(node) : node.name;
    for (const ref of new Set(node.refs)) {
      const target = manifest.models.get(refModelKey(manifest.models, ref));
      const date = target ? deprecationDateOf(target) : undefined;
      if (!target || date === undefined) continue;
      const pkg = target.fqn[0] ?? ownPackage;
      const version = target.file.version;
      const refName = version?.modelName ?? target.name;
      const past = passed(date);
      const what = past ? `which was deprecated on '${shown(date)}'.` : `which is slated for deprecation on '${shown(date)}'.`;
      const coda = version && String(version.v) !== String(version.latest)
        ? ` A new version of '${refName}' is available. Try it out: {{ ref('${pkg}', '${refName}', v='${String(version.latest)}') }}.`
        : '';
      out.push({
        event: past ? 'DeprecatedReference' : 'UpcomingReferenceDeprecation',
        message: `While compiling '${referrer}': Found a reference to ${pkg}.${refName}${version ? `.v${String(version.v)}` : ''}, ${what}${coda}`,
      });
    }
  }
  return out;
}
