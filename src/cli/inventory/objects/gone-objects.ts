import { checkedAt } from '../../checked-at.js';
import type { ResultWriter } from '../../output/index.js';
import { s3Name } from '../../sources/s3/s3-url.js';
import type { ObjectInventoryRun } from './object-run.js';

/** A row per recorded object that a complete listing no longer holds (forgotten once printed); how many. */
export function reportGoneObjects(run: ObjectInventoryRun, writer: ResultWriter): number {
  let count = 0;
  for (const { record, forget } of run.gone()) {
    count += 1;
    const { identity, answer } = record;
    writer.write(
      {
        path: s3Name(identity.bucket, identity.key),
        ...record.digests,
        size: identity.size,
        digestSource: record.digestSource,
        change: 'gone',
        previousDecision: record.decision,
        ...(answer === undefined ? {} : { checkedAt: checkedAt(answer.checkedAtMs) }),
      },
      forget,
    );
  }
  return count;
}
