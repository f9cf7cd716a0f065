import { describe, expect, it, vi } from 'vitest';
import { defineKitCases } from './msw-kit-suite.js';

// The kit imports `msw`; in this file that name means msw 3 (the devDependency alias `msw3`),
// so the kit's handlers are msw 3 handlers served by msw 3's `setupServer`.
vi.mock('msw', async () => import('msw3'));

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const supported = major > 22 || (major === 22 && minor >= 12);

describe.skipIf(!supported)(
  `testing kit under msw 3 (needs Node >= 22.12: ${supported ? 'running' : `skipped on Node ${process.versions.node}`})`,
  () => {
    it('runs msw 3, and the kit builds its handlers with it', async () => {
      const { default: manifest } = await import('msw3/package.json', { with: { type: 'json' } });
      expect(manifest.version).toMatch(/^3\./);
      const [seen, msw3] = await Promise.all([import('msw'), import('msw3')]);
      expect(seen.http).toBe(msw3.http);
    });
    defineKitCases(
      () => import('msw3/node'),
      { onUnhandledFrame: 'error' },
      () => import('../../src/testing/index.js'),
    );
  },
);
