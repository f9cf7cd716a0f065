import { describe, expect, it } from 'vitest';
import { isNewBlock, transition } from '../../../src/cli/inventory/transition.js';

describe('transition', () => {
  it('is new without a previous row, modified on another digest, verdict on another decision', () => {
    expect(transition(undefined, { decision: 'allow', hash: 'a' })).toEqual({ change: 'new' });
    expect(transition({ decision: 'allow', hash: 'a' }, { decision: 'allow', hash: 'b' })).toEqual({
      change: 'modified',
      previousDecision: 'allow',
    });
    expect(transition({ decision: 'allow', hash: 'a' }, { decision: 'block', hash: 'a' })).toEqual({
      change: 'verdict',
      previousDecision: 'allow',
    });
    expect(transition({ decision: 'block', hash: 'a' }, { decision: 'block', hash: 'a' })).toEqual({
      change: 'unchanged',
      previousDecision: 'block',
    });
  });

  it('compares decisions when a digest is missing on either side (an unreadable file has none)', () => {
    expect(transition({ decision: 'allow', hash: undefined }, { decision: 'review', hash: 'a' })).toEqual({
      change: 'verdict',
      previousDecision: 'allow',
    });
    expect(transition({ decision: 'allow', hash: 'a' }, { decision: 'allow', hash: undefined })).toEqual({
      change: 'unchanged',
      previousDecision: 'allow',
    });
  });
});

describe('isNewBlock', () => {
  it('is a block the inventory did not hold as one, never a gone row', () => {
    expect(isNewBlock('block', { change: 'new' })).toBe(true);
    expect(isNewBlock('block', { change: 'verdict', previousDecision: 'allow' })).toBe(true);
    expect(isNewBlock('block', { change: 'unchanged', previousDecision: 'block' })).toBe(false);
    expect(isNewBlock('block', { change: 'gone', previousDecision: 'allow' })).toBe(false);
    expect(isNewBlock('allow', { change: 'new' })).toBe(false);
  });
});
