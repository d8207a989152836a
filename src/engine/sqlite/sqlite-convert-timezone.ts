/**
 * Snowflake's and Redshift's `convert_timezone(source_zone, target_zone, ts)`
 * (and `convert_timezone(target_zone, ts)`, from UTC) as an SQL function on
 * SQLite connections, from the IANA zone rules Node's Intl carries: the
 * timestamp (ISO text, read as a wall-clock time in the source zone) becomes
 * the wall-clock time of the same instant in the target zone, as
 * PostgreSQL's `(ts at time zone source) at time zone target` does.
 * dbt_date's default convert_timezone writes this call. NULL in, NULL out;
 * an unknown zone or an unreadable timestamp is an SQL error.
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?$/;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    } catch {
      throw new Error(`convert_timezone: unknown time zone '${zone}'`);
    }
    formatters.set(zone, f);
  }
  return f;
}

/** The wall-clock fields of an instant in a zone, as milliseconds since the epoch read as UTC. */
function wallClock(instant: number, zone: string): number {
  const parts = Object.fromEntries(formatter(zone).formatToParts(new Date(instant)).map((p) => [p.type, p.value]));
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
}

/** The instant whose wall-clock time in `zone` is `wall` (the earlier one in an overlap, as PostgreSQL picks). */
function instantOf(wall: number, zone: string): number {
  let guess = wall - (wallClock(wall, zone) - wall);
  guess -= wallClock(guess, zone) - wall;
  return guess;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The SQL function: (source, target, ts) or (target, ts). */
export function convertTimezoneSql(...args: unknown[]): string | null {
  if (args.length === 2) return convertTimezone(args[1], 'UTC', args[0]);
  if (args.length === 3) return convertTimezone(args[2], args[0], args[1]);
  throw new Error(`convert_timezone takes 2 or 3 arguments (${args.length} given)`);
}

export function convertTimezone(value: unknown, source: unknown, target: unknown): string | null {
  if (value === null || value === undefined || source === null || target === null) return null;
  const m = ISO.exec(String(value).trim());
  if (!m) throw new Error(`convert_timezone: '${String(value)}' is not a timestamp (YYYY-MM-DD HH:MM:SS)`);
  const millis = m[7] ? Math.round(Number(m[7]) * 1000) : 0;
  const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0));
  const out = new Date(wallClock(instantOf(wall, String(source)), String(target)) + millis);
  const text = `${out.getUTCFullYear()}-${pad(out.getUTCMonth() + 1)}-${pad(out.getUTCDate())} ${pad(out.getUTCHours())}:${pad(out.getUTCMinutes())}:${pad(out.getUTCSeconds())}`;
  return millis === 0 ? text : `${text}.${pad(out.getUTCMilliseconds(), 3)}`;
}
