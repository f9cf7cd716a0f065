import type { Agent } from 'undici';
import { afterAll, beforeAll } from 'vitest';
import type { HashScanClientOptions } from '../../src/hashscan/hashscan-client.js';

/** Options that pick a transport: none for ky over `fetch`, or `dispatcher`. */
export type Via = () => Pick<HashScanClientOptions, 'dispatcher'>;

/**
 * For a test file whose scenarios run over both transports: ky over `fetch`
 * and an undici `Agent` (one per file, closed after it).
 */
export function useBothTransports(): { readonly transports: [string, Via][]; readonly agent: () => Agent } {
  let agent: Agent | undefined;
  beforeAll(async () => {
    // Loading undici installs its agent as the global dispatcher unless one is set;
    // a first fetch makes Node set its own, so the fetch leg runs as users run it.
    await (await fetch('data:,')).text();
    const undici = await import('undici');
    agent = new undici.Agent();
  });
  afterAll(async () => {
    await agent?.close();
  });
  const current = (): Agent => {
    if (agent === undefined) throw new Error('the undici agent is created in beforeAll');
    return agent;
  };
  return {
    transports: [
      ['fetch', () => ({})],
      ['undici dispatcher', () => ({ dispatcher: current() })],
    ],
    agent: current,
  };
}
