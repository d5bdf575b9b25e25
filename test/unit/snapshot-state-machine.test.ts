/**
 * The cutover snapshot state machine's one definition: valid Amazon States Language (asl-validator,
 * ARNs and paths checked), and shaped as the workflow needs: both branches pass through the same
 * wait-describe-record loop, and every failure ends in RecordFailed.
 */
import validate from 'asl-validator';
import { describe, expect, it } from 'vitest';
import {
  cutoverSnapshotDefinition,
  cutoverSnapshotDefinitionFor,
  RDS_CREATE_SNAPSHOT,
  RDS_DESCRIBE_SNAPSHOTS,
} from '../../shared/migration/snapshot-state-machine';

const TASK_ARN = 'arn:aws:lambda:eu-west-1:123456789012:function:bizops-cutover-snapshot-task';

interface State {
  Type: string;
  Next?: string;
  Default?: string;
  Resource?: string;
  Choices?: { Next: string }[];
  Catch?: { ErrorEquals: string[]; Next: string }[];
}

const definition = cutoverSnapshotDefinitionFor(TASK_ARN) as { StartAt: string; States: Record<string, State> };

describe('cutover snapshot state machine definition', () => {
  it('is valid Amazon States Language, with ARNs and paths checked', () => {
    const result = validate(definition, { checkArn: true, checkPaths: true });
    expect(result.errorsText()).toBe('');
    expect(result.isValid).toBe(true);
  });

  it('rejects a definition with a dangling transition (the check is not vacuous)', () => {
    const broken = structuredClone(definition);
    broken.States.RecordProgress.Next = 'NoSuchState';
    expect(validate(broken).isValid).toBe(false);
  });

  it('leaves only the task function placeholder to substitute, and fills every task of the function with it', () => {
    const text = JSON.stringify(cutoverSnapshotDefinition());
    expect(new Set(text.match(/\$\{(\w+)\}/g))).toEqual(new Set(['${SnapshotTaskFunctionArn}']));
    const resources = Object.values(definition.States).flatMap((state) => (state.Resource ? [state.Resource] : []));
    expect(resources.sort()).toEqual([RDS_CREATE_SNAPSHOT, RDS_DESCRIBE_SNAPSHOTS, TASK_ARN, TASK_ARN, TASK_ARN, TASK_ARN].sort());
  });

  it('takes the stub branch and the real branch through the same wait, record and choice states', () => {
    const { States } = definition;
    expect(States.CreateOrStub.Choices![0].Next).toBe('CreateStubSnapshot');
    expect(States.CreateOrStub.Default).toBe('CreateSnapshot');
    expect([States.CreateSnapshot.Next, States.CreateStubSnapshot.Next]).toEqual(['WaitForProgress', 'WaitForProgress']);
    expect([States.DescribeSnapshot.Next, States.DescribeStubSnapshot.Next]).toEqual(['RecordProgress', 'RecordProgress']);
    expect(States.IsAvailable.Choices!.map((choice) => choice.Next)).toEqual(['RecordAvailable', 'WaitForProgress']);
    expect(States.IsAvailable.Default).toBe('RecordFailed');
  });

  it('sends every error of the RDS calls and of recording progress to RecordFailed', () => {
    for (const name of ['CreateSnapshot', 'DescribeSnapshot', 'DescribeStubSnapshot', 'RecordProgress']) {
      expect(definition.States[name].Catch, name).toEqual([expect.objectContaining({ ErrorEquals: ['States.ALL'], Next: 'RecordFailed' })]);
    }
    expect(definition.States.RecordFailed.Next).toBe('SnapshotFailed');
    expect(definition.States.SnapshotFailed.Type).toBe('Fail');
  });
});
