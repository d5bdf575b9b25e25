/**
 * Runs the cutover snapshot state machine in this process, from the same definition CDK deploys,
 * with aws-local-stepfunctions: the task function's states call runSnapshotTask directly, and the
 * wait between polls is shortened. Locally every snapshot is a stub (no database service to call);
 * `rds` lets tests stand in for the RDS calls to drive the real branch.
 */
import { StateMachine } from 'aws-local-stepfunctions';
import { logger } from '../shared/powertools';
import { cutoverSnapshotDefinitionFor } from '../shared/migration/snapshot-state-machine';
import { runSnapshotTask, type SnapshotTaskInput, type SnapshotWorkflowRunner } from '../shared/migration/snapshot-workflow';

/** aws-local-stepfunctions 3 calls Promise.withResolvers (Node 22); Node 20 lacks it. */
function installWithResolvers(): void {
  const promise = Promise as unknown as { withResolvers?: () => unknown };
  promise.withResolvers ??= function withResolvers<T>() {
    let resolve!: (value: T | PromiseLike<T>) => void;
    let reject!: (reason?: unknown) => void;
    const created = new Promise<T>((yes, no) => {
      resolve = yes;
      reject = no;
    });
    return { promise: created, resolve, reject };
  };
}

const LOCAL_TASK_FUNCTION_ARN = 'arn:aws:lambda:us-east-1:000000000000:function:cutover-snapshot-task';
const TASK_STATES = ['DescribeStubSnapshot', 'RecordProgress', 'RecordAvailable', 'RecordFailed'] as const;

type Handler = (input: unknown) => Promise<unknown>;

export interface LocalSnapshotRunnerOptions {
  /** Milliseconds between progress polls (the Wait state), instead of poll_seconds. */
  pollMs?: number;
  /** Stand-ins for the RDS SDK integrations (tests of the real branch); without them those states fail, as nothing can be called. */
  rds?: { createSnapshot?: Handler; describeSnapshots?: Handler };
}

export interface LocalSnapshotRunner extends SnapshotWorkflowRunner {
  /** Settles once every execution started so far has ended; the outcomes (result or error) in start order. */
  settled(): Promise<PromiseSettledResult<unknown>[]>;
}

export function localSnapshotRunner(options: LocalSnapshotRunnerOptions = {}): LocalSnapshotRunner {
  installWithResolvers();
  const machine = new StateMachine(cutoverSnapshotDefinitionFor(LOCAL_TASK_FUNCTION_ARN) as never);
  const task: Handler = (input) => runSnapshotTask(input as SnapshotTaskInput);
  const unavailable =
    (name: string): Handler =>
    () =>
      Promise.reject(Object.assign(new Error(`${name} is not available locally`), { name: 'Rds.RdsException' }));
  const handlers: Record<string, Handler> = {
    ...Object.fromEntries(TASK_STATES.map((state) => [state, task])),
    CreateSnapshot: options.rds?.createSnapshot ?? unavailable('createDBClusterSnapshot'),
    DescribeSnapshot: options.rds?.describeSnapshots ?? unavailable('describeDBClusterSnapshots'),
  };
  const running: Promise<PromiseSettledResult<unknown>>[] = [];
  return {
    start(execution) {
      const { result } = machine.run(execution as never, {
        overrides: {
          taskResourceLocalHandlers: handlers as never,
          waitTimeOverrides: { WaitForProgress: options.pollMs ?? 200 },
          retryIntervalOverrides: Object.fromEntries([...TASK_STATES, 'CreateSnapshot', 'DescribeSnapshot'].map((state) => [state, 10])),
        },
      });
      // A failed execution is an outcome (its snapshot says failed), not an unhandled rejection.
      running.push(
        result.then(
          (value): PromiseSettledResult<unknown> => ({ status: 'fulfilled', value }),
          (reason: unknown): PromiseSettledResult<unknown> => {
            logger.warn('local cutover snapshot execution failed', { snapshotId: execution.snapshot_id, error: reason });
            return { status: 'rejected', reason };
          },
        ),
      );
      return Promise.resolve();
    },
    settled: () => Promise.all(running),
  };
}
