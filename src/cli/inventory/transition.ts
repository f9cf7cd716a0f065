/** What changed for a file since the inventory last recorded it: the `change` and `previousDecision` fields. */
type Change = 'new' | 'unchanged' | 'modified' | 'verdict' | 'gone';

/** The transition cells of a file's row. */
export interface TransitionCells {
  readonly change: Change;
  readonly previousDecision?: string;
}

/**
 * A file's transition: `new` when the inventory had no row for it,
 * `modified` when its content changed (another digest), `verdict` when the
 * same content now gets another decision (`allow` → `block` above all),
 * else `unchanged`. A changed modification time with the same digest is
 * `unchanged`: the content is what is inspected.
 */
export function transition(
  previous: { readonly decision: string; readonly hash: string | undefined } | undefined,
  now: { readonly decision: string; readonly hash: string | undefined },
): TransitionCells {
  if (previous === undefined) return { change: 'new' };
  const previousDecision = previous.decision;
  if (now.hash !== undefined && previous.hash !== undefined && now.hash !== previous.hash) {
    return { change: 'modified', previousDecision };
  }
  return { change: now.decision === previous.decision ? 'unchanged' : 'verdict', previousDecision };
}

/** Whether a row is a block the inventory did not hold as one: `--fail-on new-block`. */
export function isNewBlock(decision: string | number | undefined, cells: TransitionCells): boolean {
  return decision === 'block' && cells.change !== 'gone' && cells.previousDecision !== 'block';
}
