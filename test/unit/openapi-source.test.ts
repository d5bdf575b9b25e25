import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { etagOf } from '../../shared/http/etag';
import { asciiJson } from '../../shared/http/served-text';
import { LOCAL_SERVER, loadOpenApiText, setOpenApiSource } from '../../shared/http/openapi-source';

const document = (title: string) => ({ openapi: '3.1.0', info: { title, version: '1' }, servers: [LOCAL_SERVER], paths: {} });

describe('the served OpenAPI document', () => {
  afterEach(() => {
    delete process.env.PUBLIC_BASE_URL;
  });

  it('names the serving deployment, with an ETag that follows the document and its servers', async () => {
    setOpenApiSource(() => document('First'));
    const local = await loadOpenApiText();
    expect(JSON.parse(local.body)).toEqual(document('First'));
    expect(local.etag).toMatch(/^"[\w-]{32}-[0-9a-z]+"$/);
    // Not a hash of the served text: that is what it exists to avoid.
    expect(local.etag).not.toBe(etagOf(local.body));
    expect((await loadOpenApiText()).etag).toBe(local.etag);

    process.env.PUBLIC_BASE_URL = 'https://api.example.com';
    const deployed = await loadOpenApiText();
    expect((JSON.parse(deployed.body) as { servers: { url: string }[] }).servers[0].url).toBe('https://api.example.com');
    expect(deployed.etag).not.toBe(local.etag);

    setOpenApiSource(() => document('Second'));
    const changed = await loadOpenApiText();
    expect(changed.body).not.toBe(deployed.body);
    expect(changed.etag).not.toBe(deployed.etag);
  });
});

describe('ASCII JSON', () => {
  it('is JSON of the same value, in printable ASCII only', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'grapheme' }), (value, text) => {
        for (const input of [value, { text, nested: [text, value] }]) {
          const ascii = asciiJson(input);
          expect(ascii).toMatch(/^[\x20-\x7e]*$/);
          expect(JSON.parse(ascii)).toEqual(JSON.parse(JSON.stringify(input)));
        }
      }),
    );
  });

  it('escapes what is outside ASCII, and keeps what is inside', () => {
    expect(asciiJson({ a: 'café → 😀\u007f', b: 'plain "quoted"\n' })).toBe('{"a":"caf\\u00e9 \\u2192 \\ud83d\\ude00\\u007f","b":"plain \\"quoted\\"\\n"}');
  });
});
