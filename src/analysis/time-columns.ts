import type { ManifestNode } from '../compile/manifest.js';
import { ProjectError } from '../errors/project-error.js';

export interface TimeColumns {
  /** The day (or time) a row belongs to. */
  readonly eventTime: string;
  /** When the row landed in the warehouse. */
  readonly loadedAt: string;
}

/**
 * The event-time and loaded-at columns a seed or source declares in yml
 * (`event_time`, `loaded_at`, in config or at table level), with flags
 * taking precedence.
 */
export function timeColumns(node: ManifestNode, overrides: { eventTime?: string; loadedAt?: string } = {}): TimeColumns {
  const eventTime = overrides.eventTime ?? nonBlank(node.settings.eventTime);
  const loadedAt = overrides.loadedAt ?? nonBlank(node.settings.loadedAt);
  const missing = [eventTime ? undefined : 'event_time', loadedAt ? undefined : 'loaded_at'].filter(Boolean);
  if (!eventTime || !loadedAt) {
    throw new ProjectError(`${node.resourceType} '${node.name}' does not declare ${missing.join(' and ')}`, {
      hint: `declare them in its yml (config: {event_time: order_date, loaded_at: load_date}) or pass --event-time / --loaded-at`,
    });
  }
  return { eventTime, loadedAt };
}

function nonBlank(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value : undefined;
}
