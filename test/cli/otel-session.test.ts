import { describe, expect, it } from 'vitest';
import { takeOtelFlag } from '../../src/cli/otel-session.js';

describe('takeOtelFlag', () => {
  it('takes --otel from anywhere before a lone --, and nothing after it', () => {
    expect(takeOtelFlag(['--otel', 'lookup', 'x'])).toEqual({ argv: ['lookup', 'x'], otel: true });
    expect(takeOtelFlag(['lookup', '--otel', 'x'])).toEqual({ argv: ['lookup', 'x'], otel: true });
    expect(takeOtelFlag(['lookup', 'x'])).toEqual({ argv: ['lookup', 'x'], otel: false });
    expect(takeOtelFlag(['lookup', '--', '--otel'])).toEqual({ argv: ['lookup', '--', '--otel'], otel: false });
  });
});
