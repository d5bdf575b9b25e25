// One cold-start sample, run in a fresh `node` process by bench/bundle-size.ts:
//   node bench/cold-start-child.mjs <bundle index.mjs> <event.json> [comma-separated externals]
// Imports the bundle, calls its handler once, and prints one JSON line prefixed with BENCH_RESULT.
// The externals (the @aws-sdk/* packages the bundle imports statically) are imported first and
// timed on their own, so importMs splits into externalsMs (SDK from node_modules) + the bundle.
// Times come from process.hrtime inside this process; process.uptime() counts from process start.
// Not performance.now(): the global `performance` loads perf_hooks (about 1 ms), which would then be
// paid here for every variant instead of by the bundles that use it.
// awsSdkLoaded lists the @aws-sdk/* packages loaded by the end (statically or through import()),
// zodLoaded whether the bundle's zod.cjs was: they load as CommonJS, so the require cache shows them. An event's
// "{{unique}}" is replaced by a value new in every sample (an Idempotency-Key, a location's name),
// made from the process id and the clock: not with node:crypto, which the Lambda runtime has not
// loaded before a handler, so loading it here (about 5 ms with its first randomUUID) was counted in
// every variant's whole process, the empty handler's too, and spared the bundles that need it. No
// run of digits in it is long enough to be taken for a card number.
/* global setImmediate, setTimeout -- Node's, without loading node:timers */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [bundle, eventFile, externals = ''] = process.argv.slice(2);
const startedSinceBootMs = process.uptime() * 1000;
// What the Lambda Node.js runtime has loaded before it imports a handler, so that neither the empty
// handler nor a route is charged for it: its runtime interface client talks to the Runtime API
// through node:http with a keep-alive Agent, requires node:net for streamed responses, and patches
// the console (node:util formats the lines). Timed on its own (runtimeMs); part of the whole process.
const tRuntime = process.hrtime.bigint();
const require = createRequire(import.meta.url);
new (require('node:http').Agent)({ keepAlive: true, maxSockets: 1 });
require('node:net');
require('node:util').format('%s', globalThis.console === undefined ? '' : 'console');
const runtimeMs = Number(process.hrtime.bigint() - tRuntime) / 1e6;
const t0 = process.hrtime.bigint();
const unique = `${process.pid.toString(36)}-${process.hrtime.bigint().toString(36)}`;
const event = JSON.parse(readFileSync(eventFile, 'utf8').replaceAll('{{unique}}', unique));
for (const name of externals.split(',').filter(Boolean)) await import(name);
const tExternals = process.hrtime.bigint();
const module = await import(pathToFileURL(bundle).href);
// As the Lambda runtime does: once the handler is loaded, it asks for the first event on the next
// turn of the event loop (setImmediate, then a call to the Runtime API), so work the bundle started
// while loading (its database connection) goes on meanwhile.
await new Promise((resolve) => setImmediate(resolve));
// BENCH_EVENT_DELAY_MS: the first event comes that much later, as in an environment Lambda initialised
// ahead of any request (provisioned concurrency); the wait is left out of every time reported.
const delayMs = Number(process.env.BENCH_EVENT_DELAY_MS ?? 0);
const tWait = process.hrtime.bigint();
if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
const waitedMs = Number(process.hrtime.bigint() - tWait) / 1e6;
const t1 = process.hrtime.bigint();
const context = {
  functionName: 'bench-cold-start',
  awsRequestId: 'bench-cold-start',
  callbackWaitsForEmptyEventLoop: true,
  getRemainingTimeInMillis: () => 29_000,
};
const result = await module.handler(event, context);
const t2 = process.hrtime.bigint();
const ms = (a, b) => Number(b - a) / 1e6;
const out = {
  importMs: ms(t0, t1) - waitedMs,
  externalsMs: ms(t0, tExternals),
  invokeMs: ms(t1, t2),
  totalMs: ms(t0, t2) - waitedMs,
  sinceProcessStartMs: process.uptime() * 1000 - waitedMs,
  bootMs: startedSinceBootMs,
  runtimeMs,
  statusCode: result?.statusCode ?? (result?.policyDocument ? 200 : 0),
  effect: result?.policyDocument?.Statement?.[0]?.Effect,
  bodyBytes: typeof result?.body === 'string' ? result.body.length : 0,
  // zod.cjs beside the bundle, loaded on first use (infra/bundle.ts): whether this event needed zod.
  zodLoaded: Object.keys(require.cache).some((file) => file.endsWith('/zod.cjs')),
  awsSdkLoaded: Object.keys(require.cache)
    .map((file) => /node_modules\/(@aws-sdk\/[^/]+)\/dist-cjs\/index\.js$/.exec(file)?.[1])
    .filter(Boolean)
    .sort(),
};
process.stdout.write(`BENCH_RESULT ${JSON.stringify(out)}\n`);
// Open pools would keep the process alive; a Lambda sandbox would be frozen here instead.
process.exit(0);
