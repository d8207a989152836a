import { describe, expect, it } from 'vitest';
import { withBusyTimeout, type Session } from '../../../src/api/session.js';

const session = (busyTimeoutMs?: number): Session => {
  const project = { name: 'p', databasePath: '/tmp/w.db', busyTimeoutMs } as unknown as Session['project'];
  return { project, manifest: { project } as unknown as Session['manifest'], graph: {} as Session['graph'] };
};

describe('withBusyTimeout (--busy-timeout on a session given to backfill, replay, ...)', () => {
  it('puts the wait on the project and the manifest\'s project, so every open and run of the session waits as long', () => {
    const given = session(5000);
    const s = withBusyTimeout(given, 120);
    expect(s.project.busyTimeoutMs).toBe(120);
    expect(s.manifest.project.busyTimeoutMs).toBe(120);
    expect(s.graph).toBe(given.graph);
    expect(given.project.busyTimeoutMs).toBe(5000);
  });

  it('returns the same session when no wait is asked for, or the same one', () => {
    const given = session(300);
    expect(withBusyTimeout(given, undefined)).toBe(given);
    expect(withBusyTimeout(given, 300)).toBe(given);
    expect(withBusyTimeout(session(), 0).project.busyTimeoutMs).toBe(0);
  });
});
