import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isDocumentedNonDetection, notDetectedSchema } from '../../src/hashscan/response-schema.js';

// The fast path of the interpreter checks the documented non-detection by
// hand; it must accept exactly what the strict zod schema accepts.

const nearNonDetection = fc.record(
  {
    status: fc.oneof(fc.constant('success'), fc.string(), fc.jsonValue()),
    is_virus: fc.oneof(fc.constant(false), fc.constant(true), fc.jsonValue()),
    message: fc.oneof(fc.string(), fc.jsonValue()),
    note: fc.jsonValue(),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

describe('isDocumentedNonDetection', () => {
  it.each([[[]], [['note']], [['note', 'status']]])('agrees with notDetectedSchema(%j) on JSON values', (allowed) => {
    const schema = notDetectedSchema(allowed);
    fc.assert(
      fc.property(fc.oneof(nearNonDetection, fc.jsonValue()), fc.boolean(), (value, throughText) => {
        // Through JSON text too, so `__proto__` keys arrive as own properties.
        const body: unknown = throughText ? JSON.parse(JSON.stringify(value) ?? 'null') : value;
        expect(isDocumentedNonDetection(body, schema)).toBe(schema.safeParse(body).success);
      }),
      { numRuns: 500 },
    );
  });

  it('refuses an own __proto__ member, as the schema does', () => {
    const schema = notDetectedSchema([]);
    const body = JSON.parse('{"status":"success","is_virus":false,"message":"m","__proto__":{}}') as unknown;
    expect(isDocumentedNonDetection(body, schema)).toBe(false);
    expect(schema.safeParse(body).success).toBe(false);
  });
});
