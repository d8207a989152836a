import { PyDateTime } from './py-datetime.js';
import { PyZone } from './py-timezone.js';

/** pytz's timezone object: a zone that can `localize` a naive datetime and `normalize` an aware one. */
export class PytzTimezone extends PyZone {
  /** The naive datetime's wall-clock time, in this zone. */
  localize(dt: unknown): PyDateTime {
    if (!(dt instanceof PyDateTime)) throw new TypeError('localize() takes a datetime');
    if (dt.aware) throw new Error('ValueError: Not naive datetime (tzinfo is already set)');
    return new PyDateTime(dt.ms, dt.isDate, true, this);
  }

  /** The same instant with this zone's offset at that instant. */
  normalize(dt: unknown): PyDateTime {
    if (!(dt instanceof PyDateTime)) throw new TypeError('normalize() takes a datetime');
    return dt.astimezone(this);
  }
}

const UTC = new PytzTimezone('UTC');

/** dbt's `modules.pytz`: timezone(name), utc / UTC, for every zone Node's Intl knows. */
export function pytzModule(): Record<string, unknown> {
  return {
    timezone: (name: unknown) => (String(name) === 'UTC' ? UTC : new PytzTimezone(String(name))),
    utc: UTC,
    UTC,
    all_timezones: Intl.supportedValuesOf('timeZone'),
    common_timezones: Intl.supportedValuesOf('timeZone'),
  };
}
