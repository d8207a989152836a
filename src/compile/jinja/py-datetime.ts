import { now } from '../../clock.js';
import { splitKeywordArgs } from '../keyword-args.js';
import { callableNamespace } from './callable-namespaces.js';
import { PyZone, UTC_ZONE } from './py-timezone.js';

const DAY = 86_400_000;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Milliseconds since 1970 of a UTC date and time, years 0..99 included (Date.UTC would read them as 1900..1999). */
function utcMs(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  return d.getTime();
}

const daysInMonth = (year: number, month: number) => new Date(utcMs(year, month + 1, 0)).getUTCDate();

/**
 * A date and time from its parts, checked as Python's datetime checks them
 * (years 1 to 9999, real calendar days): ValueError's message, never a
 * silent roll-over into the next month (`date(2026, 2, 30)`).
 */
function checkedMs(parts: readonly unknown[]): number {
  const names = ['year', 'month', 'day', 'hour', 'minute', 'second', 'microsecond'];
  const [year, month, day, hour, minute, second, microsecond] = parts.map((v, i) => {
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      const type = typeof v === 'number' ? 'float' : v === null || v === undefined ? 'NoneType' : typeof v === 'string' ? 'str' : typeof v;
      throw new Error(`${names[i]}: an integer is required (got type ${type})`);
    }
    return v;
  }) as [number, number, number, number, number, number, number];
  if (year < 1 || year > 9999) throw new Error(`year ${year} is out of range`);
  if (month < 1 || month > 12) throw new Error('month must be in 1..12');
  if (day < 1 || day > daysInMonth(year, month)) throw new Error('day is out of range for month');
  if (hour < 0 || hour > 23) throw new Error('hour must be in 0..23');
  if (minute < 0 || minute > 59) throw new Error('minute must be in 0..59');
  if (second < 0 || second > 59) throw new Error('second must be in 0..59');
  if (microsecond < 0 || microsecond > 999_999) throw new Error('microsecond must be in 0..999999');
  return utcMs(year, month, day, hour, minute, second, Math.floor(microsecond / 1000));
}

/** datetime.min and datetime.max: arithmetic past them is Python's OverflowError, not a six-digit year or NaN. */
const MIN_MS = utcMs(1, 1, 1);
const MAX_MS = utcMs(9999, 12, 31, 23, 59, 59, 999);

/** Python's timedelta (whole milliseconds). */
export class PyTimedelta {
  constructor(readonly ms: number) {}
  get days(): number { return Math.floor(this.ms / DAY); }
  get seconds(): number { return Math.floor((this.ms - this.days * DAY) / 1000); }
  get microseconds(): number { return (this.ms % 1000) * 1000; }
  total_seconds(): number { return this.ms / 1000; }
  toString(): string {
    const rest = this.ms - this.days * DAY;
    const clock = `${Math.floor(rest / 3_600_000)}:${pad(Math.floor(rest / 60_000) % 60)}:${pad(Math.floor(rest / 1000) % 60)}`;
    return this.days === 0 ? clock : `${this.days} day${Math.abs(this.days) === 1 ? '' : 's'}, ${clock}`;
  }
  [Symbol.toPrimitive](hint: string): string | number { return hint === 'number' ? this.ms : this.toString(); }
  get [Symbol.toStringTag](): string { return 'timedelta'; }
}

/** `+HH:MM` (or `-HH:MM`) of an offset in milliseconds; `colon` false gives `+HHMM`. */
function offsetText(offsetMs: number, colon: boolean): string {
  const sign = offsetMs < 0 ? '-' : '+';
  const minutes = Math.round(Math.abs(offsetMs) / 60_000);
  return `${sign}${pad(Math.floor(minutes / 60))}${colon ? ':' : ''}${pad(minutes % 60)}`;
}

/**
 * Python's date and datetime (millisecond precision). `ms` is the wall-clock
 * time (as if in UTC); an `aware` one is in `tz` (UTC when none: +00:00).
 */
export class PyDateTime {
  private readonly d: Date;
  constructor(readonly ms: number, readonly isDate = false, readonly aware = false, readonly tz?: PyZone) {
    if (!(ms >= MIN_MS && ms <= MAX_MS)) throw new Error('date value out of range');
    this.d = new Date(ms);
  }
  get year(): number { return this.d.getUTCFullYear(); }
  get month(): number { return this.d.getUTCMonth() + 1; }
  get day(): number { return this.d.getUTCDate(); }
  get hour(): number { return this.d.getUTCHours(); }
  get minute(): number { return this.d.getUTCMinutes(); }
  get second(): number { return this.d.getUTCSeconds(); }
  get microsecond(): number { return this.d.getUTCMilliseconds() * 1000; }
  weekday(): number { return (this.d.getUTCDay() + 6) % 7; }
  isoweekday(): number { return this.weekday() + 1; }
  timestamp(): number { return this.ms / 1000; }
  date(): PyDateTime { return new PyDateTime(Math.floor(this.ms / DAY) * DAY, true); }
  /** The offset from UTC in milliseconds (undefined for a naive datetime). */
  offsetMs(): number | undefined { return this.aware ? (this.tz ? this.tz.offsetOfWallTime(this.ms) : 0) : undefined; }
  /** The UTC instant of an aware datetime (a naive one is read as UTC). */
  instantMs(): number { return this.ms - (this.offsetMs() ?? 0); }
  utcoffset(): PyTimedelta | null { const o = this.offsetMs(); return o === undefined ? null : new PyTimedelta(o); }
  get tzinfo(): unknown { return this.aware ? (this.tz ?? 'UTC') : null; }
  /** The same instant in another zone (pytz's timezone or utc); without one, itself. */
  astimezone(zone?: unknown): PyDateTime {
    if (!(zone instanceof PyZone)) return this;
    const instant = this.instantMs();
    return new PyDateTime(instant + zone.offsetAt(instant), false, true, zone);
  }
  replace(...args: unknown[]): PyDateTime {
    const { keywords } = splitKeywordArgs(args);
    const get = (k: string, v: number): unknown => (keywords[k] !== undefined ? keywords[k] : v);
    const ms = checkedMs([get('year', this.year), get('month', this.month), get('day', this.day), get('hour', this.hour), get('minute', this.minute), get('second', this.second), get('microsecond', this.microsecond)]);
    if (keywords.tzinfo instanceof PyZone) return new PyDateTime(ms, this.isDate, true, keywords.tzinfo);
    return new PyDateTime(ms, this.isDate, keywords.tzinfo === null ? false : this.aware, keywords.tzinfo === null ? undefined : this.tz);
  }
  strftime(format: unknown): string {
    const hour12 = this.hour % 12 === 0 ? 12 : this.hour % 12;
    const start = utcMs(this.year, 1, 1);
    const codes: Record<string, string> = {
      Y: pad(this.year, 4), y: pad(this.year % 100), m: pad(this.month), d: pad(this.day), H: pad(this.hour), I: pad(hour12),
      M: pad(this.minute), S: pad(this.second), f: pad(this.microsecond, 6), p: this.hour < 12 ? 'AM' : 'PM',
      j: pad(Math.floor((utcMs(this.year, this.month, this.day) - start) / DAY) + 1, 3),
      a: DAYS[this.weekday()]!.slice(0, 3), A: DAYS[this.weekday()]!, b: MONTHS[this.month - 1]!.slice(0, 3), B: MONTHS[this.month - 1]!,
      z: this.aware ? offsetText(this.offsetMs()!, false) : '', Z: this.aware ? this.zoneAbbreviation() : '', '%': '%',
    };
    return String(format).replace(/%([A-Za-z%])/g, (m, c: string) => codes[c] ?? m);
  }
  isoformat(sep: unknown = 'T'): string {
    if (this.isDate) return this.strftime('%Y-%m-%d');
    const frac = this.microsecond ? `.${pad(this.microsecond, 6)}` : '';
    return `${this.strftime('%Y-%m-%d')}${String(sep)}${this.strftime('%H:%M:%S')}${frac}${this.aware ? offsetText(this.offsetMs()!, true) : ''}`;
  }
  private zoneAbbreviation(): string {
    if (!this.tz || this.tz.zone === 'UTC') return 'UTC';
    return this.tz.abbreviationAt(this.instantMs());
  }
  toString(): string { return this.isoformat(' '); }
  /** In JSON (manifest.json's config, a `begin=modules.datetime.datetime(...)`) as dbt writes it: `2020-01-01T00:00:00`. */
  toJSON(): string { return this.isoformat(); }
  get [Symbol.toStringTag](): string { return this.isDate ? 'date' : 'datetime'; }
  [Symbol.toPrimitive](hint: string): string | number { return hint === 'number' ? this.ms : this.toString(); }
}

function parseIso(text: string, isDate: boolean): PyDateTime {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?(Z|[+-]00:?00)?$/.exec(text.trim());
  if (!m) throw new Error(`Invalid isoformat string: '${text}'`);
  const ms = checkedMs([+m[1]!, +m[2]!, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), +(m[7] ?? '0').padEnd(6, '0')]);
  return new PyDateTime(isDate ? Math.floor(ms / DAY) * DAY : ms, isDate, m[8] !== undefined);
}

function strptime(text: unknown, format: unknown): PyDateTime {
  const fields: string[] = [];
  const pattern = String(format).replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%([YmdHMSfjyp%])/g, (_m, c: string) => {
    if (c === '%') return '%';
    fields.push(c);
    return c === 'Y' ? '(\\d{4})' : c === 'f' ? '(\\d{1,6})' : c === 'j' ? '(\\d{1,3})' : c === 'p' ? '(AM|PM)' : '(\\d{1,2})';
  });
  const m = new RegExp(`^${pattern}$`).exec(String(text));
  const noMatch = () => new Error(`time data '${String(text)}' does not match format '${String(format)}'`);
  if (!m) throw noMatch();
  const v: Record<string, number> = { Y: 1900, m: 1, d: 1, H: 0, M: 0, S: 0, f: 0 };
  fields.forEach((f, i) => { v[f] = f === 'p' ? (m[i + 1] === 'PM' ? 12 : 0) : f === 'y' ? 2000 + Number(m[i + 1]) : Number(m[i + 1]); });
  if (fields.includes('y')) v.Y = v.y!;
  // As Python's directives: %m 1-12, %d 1-31, %H 0-23, %M and %S 0-59; anything else does not match.
  const ranges: Record<string, [number, number]> = { m: [1, 12], d: [1, 31], H: [0, 23], M: [0, 59], S: [0, 59] };
  for (const [f, [lo, hi]] of Object.entries(ranges)) if (v[f]! < lo || v[f]! > hi) throw noMatch();
  const hour = fields.includes('p') ? (v.H! % 12) + v.p! : v.H!;
  return new PyDateTime(checkedMs([v.Y!, v.m!, v.d!, hour, v.M!, v.S!, Number(String(v.f).padEnd(6, '0'))]));
}

function timedelta(...args: unknown[]): PyTimedelta {
  const { positional, keywords } = splitKeywordArgs(args);
  const n = (k: string, i: number) => Number(keywords[k] ?? positional[i] ?? 0);
  return new PyTimedelta(Math.round(n('days', 0) * DAY + n('seconds', 1) * 1000 + n('microseconds', 2) / 1000 + n('milliseconds', 3)
    + n('minutes', 4) * 60_000 + n('hours', 5) * 3_600_000 + n('weeks', 6) * 7 * DAY));
}

function construct(isDate: boolean) {
  return (...args: unknown[]) => {
    const { positional, keywords } = splitKeywordArgs(args);
    const names = ['year', 'month', 'day', 'hour', 'minute', 'second', 'microsecond'];
    const v = names.map((k, i) => keywords[k] ?? positional[i] ?? (i < 3 ? undefined : 0));
    const tz = keywords.tzinfo ?? positional[7];
    return new PyDateTime(checkedMs(v), isDate, tz !== undefined && tz !== null, tz instanceof PyZone ? tz : undefined);
  };
}

/** A JavaScript Date as dbt's run_started_at: an aware UTC datetime. */
export function toPyDateTime(date: Date): PyDateTime {
  return new PyDateTime(date.getTime(), false, true);
}

/** `modules.datetime`: datetime, date, timedelta and timezone.utc. */
export function datetimeModule(): Record<string, unknown> {
  const datetime = callableNamespace(construct(false), {
    // now(tz): the same clock reading, as an aware datetime in that zone.
    now: (tz?: unknown) => (tz instanceof PyZone ? new PyDateTime(now().getTime(), false, true).astimezone(tz) : new PyDateTime(now().getTime())),
    utcnow: () => new PyDateTime(now().getTime()),
    today: () => new PyDateTime(now().getTime()),
    strptime,
    fromisoformat: (text: unknown) => parseIso(String(text), false),
    fromtimestamp: (seconds: unknown) => new PyDateTime(Number(seconds) * 1000),
  });
  const date = callableNamespace(construct(true), {
    today: () => new PyDateTime(Math.floor(now().getTime() / DAY) * DAY, true),
    fromisoformat: (text: unknown) => parseIso(String(text), true),
  });
  return { datetime, date, timedelta, timezone: { utc: UTC_ZONE } };
}

/** `a + b` / `a - b` when one side is a date, datetime or timedelta; undefined otherwise. */
export function dateArithmetic(op: '+' | '-', a: unknown, b: unknown): unknown {
  if (a instanceof PyDateTime && b instanceof PyTimedelta) return new PyDateTime(a.ms + (op === '+' ? b.ms : -b.ms), a.isDate, a.aware, a.tz);
  if (op === '+' && a instanceof PyTimedelta && b instanceof PyDateTime) return new PyDateTime(b.ms + a.ms, b.isDate, b.aware, b.tz);
  if (a instanceof PyTimedelta && b instanceof PyTimedelta) return new PyTimedelta(op === '+' ? a.ms + b.ms : a.ms - b.ms);
  if (op === '-' && a instanceof PyDateTime && b instanceof PyDateTime) return new PyTimedelta(a.aware && b.aware ? a.instantMs() - b.instantMs() : a.ms - b.ms);
  return undefined;
}
