import { describe, expect, it } from 'vitest';
import { defineKitCases } from './msw-kit-suite.js';

describe('testing kit under msw 2 (the devDependency `msw`)', () => {
  it('runs msw 2', async () => {
    const { default: manifest } = await import('msw/package.json', { with: { type: 'json' } });
    expect(manifest.version).toMatch(/^2\./);
  });
  defineKitCases(
    () => import('msw/node'),
    { onUnhandledRequest: 'error' },
    () => import('../../src/testing/index.js'),
  );
});
