/**
 * Time zones for `modules.pytz` (pytz.timezone('America/Los_Angeles'),
 * pytz.utc): a zone's UTC offset at an instant comes from Node's Intl (the
 * IANA database), so every zone Intl knows works, with its daylight saving.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric', era: 'short' });
    formatters.set(zone, f);
  }
  return f;
}

/** pytz's tzinfo for one zone. */
export class PyZone {
  constructor(readonly zone: string) {
    if (zone !== 'UTC') {
      try {
        formatter(zone);
      } catch {
        throw new Error(`UnknownTimeZoneError: '${zone}'`);
      }
    }
  }

  /** The zone's offset from UTC, in milliseconds, at a UTC instant. */
  offsetAt(instantMs: number): number {
    if (this.zone === 'UTC') return 0;
    const parts: Record<string, string> = {};
    for (const p of formatter(this.zone).formatToParts(new Date(instantMs))) parts[p.type] = p.value;
    const year = parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year);
    const wall = new Date(0);
    wall.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
    wall.setUTCHours(Number(parts.hour) % 24, Number(parts.minute), Number(parts.second), 0);
    return wall.getTime() - (instantMs - (((instantMs % 1000) + 1000) % 1000));
  }

  /** The offset of a wall-clock time in this zone (the standard-time reading where a time is ambiguous, as pytz's is_dst=False). */
  offsetOfWallTime(wallMs: number): number {
    const first = this.offsetAt(wallMs);
    const second = this.offsetAt(wallMs - first);
    return first === second ? first : Math.min(first, second);
  }

  /** The zone's short name at an instant (PST, CET; GMT+9 where Intl has none). */
  abbreviationAt(instantMs: number): string {
    const named = new Intl.DateTimeFormat('en-US', { timeZone: this.zone, timeZoneName: 'short' }).formatToParts(new Date(instantMs)).find((p) => p.type === 'timeZoneName');
    return named?.value ?? this.zone;
  }

  toString(): string {
    return this.zone;
  }

  get [Symbol.toStringTag](): string {
    return 'tzinfo';
  }
}

export const UTC_ZONE = new PyZone('UTC');

/** A zone by name; 'UTC' is pytz.utc. */
export function zoneNamed(name: unknown): PyZone {
  const text = String(name);
  return text === 'UTC' || text === 'utc' ? UTC_ZONE : new PyZone(text);
}
