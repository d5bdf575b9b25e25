import { describe, expect, it } from 'vitest';
import { acceptedKeyModesEnv, operatorSettingsFrom, parseStageConfig, stageConfig, stageKeyModes } from '../../infra/config/stages';

/** Prod with the operator's one required setting, as `-c alarmEmail=...` gives it. */
const prodConfig = () => stageConfig('prod', { alarmEmail: 'alarms@bizops.test' });

describe('stage config', () => {
  it('defaults to the sandbox, which takes test keys only', () => {
    const sandbox = stageConfig();
    expect(sandbox.name).toBe('sandbox');
    expect(acceptedKeyModesEnv(sandbox)).toBe('test');
    expect(sandbox.database.deletionProtection).toBe(false);
  });

  it('gives prod live and test keys, deletion protection and retained data', () => {
    const prod = prodConfig();
    expect(acceptedKeyModesEnv(prod)).toBe('live,test');
    expect(prod.database).toMatchObject({ deletionProtection: true, removal: 'snapshot' });
    expect(prod.idempotency.removal).toBe('retain');
    expect(prod.events.removal).toBe('retain');
    expect(prod.logs.removal).toBe('retain');
  });

  it('gives prod the Stripe processor (with its secret) and the sandbox the in-process one', () => {
    expect(prodConfig().payments).toEqual({ processor: 'stripe', stripeSecretName: 'bizops/prod/stripe' });
    expect(stageConfig('sandbox').payments).toEqual({ processor: 'sandbox' });
    const prod = prodConfig();
    expect(() => parseStageConfig({ ...prod, payments: { processor: 'sandbox' } })).toThrow(/real payment processor/);
    expect(() => parseStageConfig({ ...prod, payments: { processor: 'stripe' } })).toThrow(/stripeSecretName/);
  });

  it('caches authorizer answers for 60 seconds in both stages', () => {
    expect(prodConfig().api.authorizerCacheTtlSeconds).toBe(60);
    expect(stageConfig('sandbox').api.authorizerCacheTtlSeconds).toBe(60);
  });

  it("needs the operator's alarm e-mail for prod, naming the setting and both ways to give it", () => {
    expect(() => stageConfig('prod')).toThrow(
      'invalid stage configuration: observability.alarmEmail: prod needs the alarm e-mail: pass -c alarmEmail=<value> to cdk, or set BIZOPS_ALARM_EMAIL',
    );
    expect(prodConfig().observability.alarmEmail).toBe('alarms@bizops.test');
    expect(() => stageConfig('prod', { alarmEmail: 'not an address' })).toThrow(/observability.alarmEmail/);
    // The sandbox needs none, and takes one when given.
    expect(stageConfig('sandbox').observability.alarmEmail).toBeUndefined();
    expect(stageConfig('sandbox', { alarmEmail: 'sandbox@bizops.test' }).observability.alarmEmail).toBe('sandbox@bizops.test');
  });

  it('reads the operator settings from CDK context first, then the environment', () => {
    const context = (values: Record<string, unknown>) => (key: string) => values[key];
    expect(operatorSettingsFrom(context({ alarmEmail: 'a@bizops.test' }), { BIZOPS_ALARM_EMAIL: 'b@bizops.test' })).toEqual({
      alarmEmail: 'a@bizops.test',
      manageApiGatewayAccount: undefined,
    });
    expect(operatorSettingsFrom(context({}), { BIZOPS_ALARM_EMAIL: 'b@bizops.test', BIZOPS_MANAGE_API_GATEWAY_ACCOUNT: 'false' })).toEqual({
      alarmEmail: 'b@bizops.test',
      manageApiGatewayAccount: false,
    });
    expect(operatorSettingsFrom(context({ manageApiGatewayAccount: 'true' }), {}).manageApiGatewayAccount).toBe(true);
    expect(operatorSettingsFrom(context({}), { BIZOPS_ALARM_EMAIL: '' })).toEqual({ alarmEmail: undefined, manageApiGatewayAccount: undefined });
    expect(() => operatorSettingsFrom(context({ manageApiGatewayAccount: 'no' }), {})).toThrow(/manageApiGatewayAccount is true or false/);
  });

  it('tells the CLI which key modes each stage accepts, without the operator settings', () => {
    expect(stageKeyModes('sandbox')).toEqual(['test']);
    expect(stageKeyModes('prod')).toEqual(['live', 'test']);
    expect(() => stageKeyModes('staging')).toThrow(/prod\|sandbox/);
  });

  it('keeps no provisioned concurrency unless the stage config asks for it, and only whole environments', () => {
    expect(prodConfig().api.provisionedConcurrency).toEqual({});
    expect(stageConfig('sandbox').api.provisionedConcurrency).toEqual({});
    const prod = prodConfig();
    expect(parseStageConfig({ ...prod, api: { ...prod.api, provisionedConcurrency: { 'orders.create': 2 } } }).api.provisionedConcurrency).toEqual({
      'orders.create': 2,
    });
    expect(() => parseStageConfig({ ...prod, api: { ...prod.api, provisionedConcurrency: { 'orders.create': 0 } } })).toThrow(/provisionedConcurrency/);
  });

  it('rejects unknown stages with the valid choices', () => {
    expect(() => stageConfig('staging')).toThrow(/prod\|sandbox/);
  });

  it('rejects configurations that would endanger data or mix up key modes', () => {
    const prod = prodConfig();
    expect(() => parseStageConfig({ ...prod, database: { ...prod.database, deletionProtection: false } })).toThrow(/deletionProtection/);
    expect(() => parseStageConfig({ ...prod, database: { ...prod.database, removal: 'destroy' } })).toThrow(/database.removal/);
    expect(() => parseStageConfig({ ...prod, database: { ...prod.database, minCapacity: 8, maxCapacity: 4 } })).toThrow(/minCapacity/);
    const sandbox = stageConfig('sandbox');
    expect(() => parseStageConfig({ ...sandbox, acceptedKeyModes: ['live', 'test'] })).toThrow(/test keys only/);
    expect(() => parseStageConfig({ ...sandbox, logs: { ...sandbox.logs, functionsRetentionDays: 42 } })).toThrow(/functionsRetentionDays/);
  });
});
