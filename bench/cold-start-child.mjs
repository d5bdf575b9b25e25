// One cold-start sample, run in a fresh `node` process by bench/bundle-size.ts:
//   node bench/cold-start-child.mjs <bundle index.mjs> <event.json>
// Imports the bundle, calls its handler once, and prints one JSON line prefixed with BENCH_RESULT.
// Times come from process.hrtime inside this process; process.uptime() counts from process start.
// Not performance.now(): the global `performance` loads perf_hooks, which would then be paid here
// for every variant instead of by the bundles that use it. An event's "{{unique}}" is replaced by
// a value new in every sample (an Idempotency-Key, a location's name), made from the process id
// and the clock rather than node:crypto, which the Lambda runtime has not loaded before a handler.
/* global setImmediate -- Node's, without loading node:timers */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const [bundle, eventFile] = process.argv.slice(2);
// What the Lambda Node.js runtime has loaded before it imports a handler (its runtime client talks
// to the Runtime API through node:http, requires node:net, formats console lines with node:util),
// so that neither the empty handler nor a route is charged for it.
const require = createRequire(import.meta.url);
new (require('node:http').Agent)({ keepAlive: true, maxSockets: 1 });
require('node:net');
require('node:util').format('%s', globalThis.console === undefined ? '' : 'console');
const t0 = process.hrtime.bigint();
const unique = `${process.pid.toString(36)}-${process.hrtime.bigint().toString(36)}`;
const event = JSON.parse(readFileSync(eventFile, 'utf8').replaceAll('{{unique}}', unique));
const module = await import(pathToFileURL(bundle).href);
// As the Lambda runtime does: it asks for the first event on the next turn of the event loop, so
// work the bundle started while loading (its database connection) goes on meanwhile.
await new Promise((resolve) => setImmediate(resolve));
const t1 = process.hrtime.bigint();
const context = { functionName: 'bench-cold-start', awsRequestId: 'bench-cold-start', getRemainingTimeInMillis: () => 29_000 };
const result = await module.handler(event, context);
const t2 = process.hrtime.bigint();
const ms = (a, b) => Number(b - a) / 1e6;
const out = {
  importMs: ms(t0, t1),
  invokeMs: ms(t1, t2),
  sinceProcessStartMs: process.uptime() * 1000,
  // CPU time of the whole process (user + system): what a busy machine inflates least.
  cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
  statusCode: result?.statusCode ?? 0,
};
process.stdout.write(`BENCH_RESULT ${JSON.stringify(out)}\n`);
// Open pools would keep the process alive; a Lambda sandbox would be frozen here instead.
process.exit(0);
