/**
 * The serving part of GET /docs: what its function's bundle is built on (infra/functions.ts). It
 * imports no zod, so a cold start compiles none; the declaration (get-docs.ts) adds what documents the route.
 */
import { publicHandler } from '../../shared/http/public-handler';
import { servedText, type ServedText } from '../../shared/http/served-text';
import { publicServing } from '../../shared/http/route';
import { REDOC_SCRIPT_FILE } from './redoc-script';

/**
 * The page loads the script and the document relative to where it is served (the API's root is
 * /<stage> on an execute-api host, / elsewhere), so one page works on every deployment. Redoc
 * routes its own anchors; an error code's anchor (#error-<code>, every envelope's doc_url) is
 * scrolled to once the page has rendered.
 */
/**
 * Everything the page loads comes from this API: the policy also stops the one image Redoc's
 * footer would fetch from its vendor's CDN (Redoc then leaves it out). Redoc needs inline styles,
 * eval (its schema samples) and a blob worker (search).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
    <link rel="icon" href="data:,">
    <title>Business Operations API reference</title>
    <style>
      body { margin: 0; }
      table.error-catalog td { vertical-align: top; }
      table.error-catalog code { word-break: normal; overflow-wrap: normal; }
    </style>
  </head>
  <body>
    <noscript>The reference needs JavaScript; the OpenAPI document is at v1/openapi.json.</noscript>
    <div id="reference"></div>
    <script>
      const root = location.pathname.replace(/\\/docs\\/?$/, '');
      const script = document.createElement('script');
      script.src = root + '/docs/${REDOC_SCRIPT_FILE}';
      script.onload = () =>
        Redoc.init(root + '/v1/openapi.json', { expandResponses: '200,201,202', hideHostname: false }, document.getElementById('reference'), () => {
          const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
          if (target) target.scrollIntoView();
        });
      document.head.appendChild(script);
    </script>
  </body>
</html>
`;

let page: ServedText | undefined;

export const served = publicServing({
  id: 'platform.docs',
  method: 'GET',
  path: '/docs',
  contentType: 'text/html; charset=utf-8',
  handler: () => Promise.resolve((page ??= servedText(PAGE))),
});

export const handler = publicHandler(served);
