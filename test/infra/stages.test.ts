import { describe, expect, it } from 'vitest';
import { acceptedKeyModesEnv, parseStageConfig, stageConfig } from '../../infra/config/stages';

describe('stage config', () => {
  it('defaults to the sandbox, which takes test keys only', () => {
    const sandbox = stageConfig();
    expect(sandbox.name).toBe('sandbox');
    expect(acceptedKeyModesEnv(sandbox)).toBe('test');
    expect(sandbox.database.deletionProtection).toBe(false);
  });

  it('gives prod live and test keys, deletion protection and retained data', () => {
    const prod = stageConfig('prod');
    expect(acceptedKeyModesEnv(prod)).toBe('live,test');
    expect(prod.database).toMatchObject({ deletionProtection: true, removal: 'snapshot' });
    expect(prod.idempotency.removal).toBe('retain');
    expect(prod.events.removal).toBe('retain');
    expect(prod.logs.removal).toBe('retain');
  });

  it('gives prod the Stripe processor (with its secret) and the sandbox the in-process one', () => {
    expect(stageConfig('prod').payments).toEqual({ processor: 'stripe', stripeSecretName: 'bizops/prod/stripe' });
    expect(stageConfig('sandbox').payments).toEqual({ processor: 'sandbox' });
    const prod = stageConfig('prod');
    expect(() => parseStageConfig({ ...prod, payments: { processor: 'sandbox' } })).toThrow(/real payment processor/);
    expect(() => parseStageConfig({ ...prod, payments: { processor: 'stripe' } })).toThrow(/stripeSecretName/);
  });

  it('caches authorizer answers for 60 seconds in both stages', () => {
    expect(stageConfig('prod').api.authorizerCacheTtlSeconds).toBe(60);
    expect(stageConfig('sandbox').api.authorizerCacheTtlSeconds).toBe(60);
  });

  it('rejects unknown stages with the valid choices', () => {
    expect(() => stageConfig('staging')).toThrow(/prod\|sandbox/);
  });

  it('rejects configurations that would endanger data or mix up key modes', () => {
    const prod = stageConfig('prod');
    expect(() => parseStageConfig({ ...prod, database: { ...prod.database, deletionProtection: false } })).toThrow(/deletionProtection/);
    expect(() => parseStageConfig({ ...prod, database: { ...prod.database, removal: 'destroy' } })).toThrow(/database.removal/);
    expect(() => parseStageConfig({ ...prod, database: { ...prod.database, minCapacity: 8, maxCapacity: 4 } })).toThrow(/minCapacity/);
    const sandbox = stageConfig('sandbox');
    expect(() => parseStageConfig({ ...sandbox, acceptedKeyModes: ['live', 'test'] })).toThrow(/test keys only/);
    expect(() => parseStageConfig({ ...sandbox, logs: { ...sandbox.logs, functionsRetentionDays: 42 } })).toThrow(/functionsRetentionDays/);
  });
});
