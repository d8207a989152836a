import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { convertTimezone, convertTimezoneSql } from '../../../src/engine/sqlite/sqlite-convert-timezone.js';
import { openSqlite } from '../../../src/engine/sqlite/sqlite-connection.js';

describe("convert_timezone on SQLite: Snowflake's and Redshift's function, from Intl's zone rules", () => {
  it('converts a wall-clock time between zones, standard and daylight time, as PostgreSQL does', () => {
    expect(convertTimezone('2024-01-15 12:00:00', 'UTC', 'America/New_York')).toBe('2024-01-15 07:00:00');
    expect(convertTimezone('2024-07-15 12:00:00', 'UTC', 'America/New_York')).toBe('2024-07-15 08:00:00');
    expect(convertTimezone('2024-03-10 01:30:00', 'America/Los_Angeles', 'UTC')).toBe('2024-03-10 09:30:00');
    expect(convertTimezone('2024-03-10T12:00:00', 'America/Los_Angeles', 'UTC')).toBe('2024-03-10 19:00:00');
    expect(convertTimezone('2024-01-01', 'Asia/Tokyo', 'UTC')).toBe('2023-12-31 15:00:00');
    expect(convertTimezone('2024-01-15 12:00:00.250', 'UTC', 'Asia/Kolkata')).toBe('2024-01-15 17:30:00.250');
  });

  it('(source, target, ts) and (target, ts) from UTC; NULL gives NULL; a bad zone or timestamp is an error', () => {
    expect(convertTimezoneSql('UTC', 'Europe/Paris', '2024-06-01 10:00:00')).toBe('2024-06-01 12:00:00');
    expect(convertTimezoneSql('Europe/Paris', '2024-06-01 10:00:00')).toBe('2024-06-01 12:00:00');
    expect(convertTimezoneSql('UTC', 'Europe/Paris', null)).toBeNull();
    expect(() => convertTimezone('2024-06-01 10:00:00', 'UTC', 'Mars/Olympus')).toThrow("convert_timezone: unknown time zone 'Mars/Olympus'");
    expect(() => convertTimezone('yesterday', 'UTC', 'Europe/Paris')).toThrow("'yesterday' is not a timestamp");
  });

  it('is an SQL function on every mini-dbt connection', () => {
    const db = openSqlite(':memory:', { busyTimeoutMs: 0 });
    expect(db.value("select convert_timezone('UTC', 'America/Los_Angeles', '2024-01-15 12:00:00')")).toBe('2024-01-15 04:00:00');
    expect(() => new Database(':memory:').prepare("select convert_timezone('UTC', 'X', '2024-01-01')").get()).toThrow(/no such function/);
  });
});
