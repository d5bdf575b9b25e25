/**
 * Bundle stand-in for the Node.js streams `@middy/core` imports (`node:stream`,
 * `node:stream/promises`, `node:stream/web`). It uses them only for response streaming
 * (`streamifyResponse: true`), which no function here turns on, and loading them costs about 1 ms
 * of every cold start. Anything that does reach them fails loudly instead of streaming nothing.
 */
function unavailable(): never {
  throw new Error('response streaming is not bundled (infra/bundle-shims/middy-streams.ts)');
}

export const Readable = { from: unavailable };
export const pipeline = unavailable;
export class ReadableStream {
  constructor() {
    unavailable();
  }
}
