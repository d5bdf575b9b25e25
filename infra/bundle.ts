/**
 * Bundles every Lambda entry point in ONE esbuild pass at synth time.
 *
 * NodejsFunction starts one esbuild process per function (about 19 s for 40 functions here); one
 * build() call with an entryPoints map does the same work in well under a second. Each entry
 * lands in its own folder (`<outdir>/<name>/index.mjs`) that lambda.Code.fromAsset() zips as the
 * function's code, so every function still ships only what it imports, the AWS SDK clients it
 * calls included: the SDK is bundled, so the versions package.json pins are the ones that run, not
 * the runtime's.
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { createRequire, isBuiltin } from 'node:module';
import { build, type BuildOptions, type Plugin } from 'esbuild';

export interface BundleEntry {
  /** Output folder name, relative to outdir (may contain `/`), e.g. `locations/create-location`. */
  name: string;
  /** Entry file (absolute, or relative to the repository root). */
  entry: string;
  /** Directories whose files are copied next to index.mjs, e.g. the SQL migrations. */
  copyDirs?: { from: string; to: string }[];
  /** Generated files written next to index.mjs (name → content), e.g. the OpenAPI document. */
  files?: Record<string, string>;
  /**
   * Built in a pass of its own with esbuild's code splitting: what the entry reaches only through
   * `import()` lands in chunk files beside index.mjs, which a cold start neither loads nor compiles
   * (a public route's input reader and zod, public-handler.ts). Without it an `import()`ed module
   * is bundled into index.mjs, evaluated late but compiled with the rest.
   */
  splitLazyImports?: boolean;
}

export interface BundleOptions {
  outdir: string;
  /** Repository root that relative entry paths resolve against; defaults to the current directory. */
  root?: string;
  minify?: boolean;
  /** 'external' writes index.mjs.map files next to the bundles (then set NODE_OPTIONS=--enable-source-maps). */
  sourcemap?: false | 'external';
  /** Where to write `{ name: bytes }` of every index.mjs; skipped when omitted. */
  sizesFile?: string;
}

export interface BundleResult {
  outdir: string;
  /** name → absolute folder holding index.mjs (and any copied files). */
  dirs: Record<string, string>;
  /** name → bytes of the function's code (index.mjs and any chunks beside it). */
  sizes: Record<string, number>;
  durationMs: number;
}

/**
 * ESM output needs `require` for the CommonJS dependencies esbuild inlines (pg, middy's helpers)
 * and `__dirname`/`__filename` for the few that read files next to themselves. The aliases keep
 * the banner's bindings from clashing with names inside the bundle.
 */
const ESM_BANNER = [
  "import { createRequire as __bundleCreateRequire } from 'node:module';",
  "import { fileURLToPath as __bundleFileURLToPath } from 'node:url';",
  "import { dirname as __bundleDirname } from 'node:path';",
  'const require = __bundleCreateRequire(import.meta.url);',
  'const __filename = __bundleFileURLToPath(import.meta.url);',
  'const __dirname = __bundleDirname(__filename);',
].join('\n');

export async function bundleFunctions(entries: readonly BundleEntry[], options: BundleOptions): Promise<BundleResult> {
  const started = performance.now();
  const root = resolve(options.root ?? process.cwd());
  const outdir = resolve(options.outdir);
  const names = new Set<string>();
  for (const entry of entries) {
    if (names.has(entry.name)) throw new Error(`duplicate bundle name ${entry.name}`);
    names.add(entry.name);
  }

  // Start clean so a deleted route cannot leave a stale bundle behind; the folder is wiped, so
  // it must never be the repository or one of its parents.
  if (outdir === root || `${root}${sep}`.startsWith(`${outdir}${sep}`)) throw new Error(`refusing to bundle into ${outdir}: it contains the sources`);
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });

  const entryPoint = (entry: BundleEntry) => `${HANDLER_ONLY}:${resolve(root, entry.entry)}`;
  const common = {
    absWorkingDir: root,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    // Prefer the ESM builds of dependencies: they tree-shake far better than the CommonJS ones.
    mainFields: ['module', 'main'],
    minify: options.minify ?? true,
    // Names are not preserved (that costs ~5% of every bundle): the error names the handler stack
    // matches on are assigned explicitly by the libraries (this.name = '...'), not taken from classes.
    keepNames: false,
    sourcemap: options.sourcemap ?? false,
    legalComments: 'none',
    banner: { js: ESM_BANNER },
    // pg-native is a native addon, which the bundles do not carry (infra/bundle-shims/pg-native.ts).
    external: ['pg-native'],
    plugins: [handlerOnly(), pgWithoutNative(root), builtinsWithTheirModule()],
    logLevel: 'warning',
  } satisfies BuildOptions;
  const [split, together] = [entries.filter((entry) => entry.splitLazyImports), entries.filter((entry) => !entry.splitLazyImports)];
  await Promise.all([
    build({
      ...common,
      entryPoints: Object.fromEntries(together.map((entry) => [`${entry.name}/index`, entryPoint(entry)])),
      outdir,
      splitting: false,
    }),
    // One pass each: the chunks land in the function's own folder, shared with no other function.
    ...split.map((entry) => build({ ...common, entryPoints: { index: entryPoint(entry) }, outdir: join(outdir, entry.name), splitting: true })),
  ]);

  const dirs: Record<string, string> = {};
  const sizes: Record<string, number> = {};
  for (const entry of entries) {
    const dir = join(outdir, entry.name);
    for (const { from, to } of entry.copyDirs ?? []) copyDirectory(resolve(root, from), join(dir, to));
    for (const [name, content] of Object.entries(entry.files ?? {})) writeFileSync(join(dir, name), content);
    dirs[entry.name] = dir;
    sizes[entry.name] = readdirSync(dir)
      .filter((file) => file.endsWith('.mjs'))
      .reduce((bytes, file) => bytes + statSync(join(dir, file)).size, 0);
  }
  if (options.sizesFile) {
    mkdirSync(dirname(options.sizesFile), { recursive: true });
    writeFileSync(options.sizesFile, `${JSON.stringify(sizes, Object.keys(sizes).sort(), 2)}\n`);
  }
  return { outdir, dirs, sizes, durationMs: Math.round(performance.now() - started) };
}

const HANDLER_ONLY = 'handler-only';

/**
 * Each function's entry exports only `handler`, the one name Lambda calls (`index.handler`): the
 * other exports of a handler module (a route's declaration, for the route table and the OpenAPI
 * document) are then code like any other, left out when nothing the handler runs uses them. A
 * public route's function is built on its serving part (functions/<key>.serving.ts), which
 * imports no zod: its index.mjs then carries neither the declaration nor zod.
 */
function handlerOnly(): Plugin {
  return {
    name: HANDLER_ONLY,
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: new RegExp(`^${HANDLER_ONLY}:`) }, ({ path }) => ({
        path: path.slice(HANDLER_ONLY.length + 1),
        namespace: HANDLER_ONLY,
      }));
      pluginBuild.onLoad({ filter: /.*/, namespace: HANDLER_ONLY }, ({ path }) => ({
        contents: `export { handler } from ${JSON.stringify(path)};`,
        resolveDir: dirname(path),
        loader: 'js',
      }));
    },
  };
}

/**
 * Node's built-in modules load with the dependency that uses them, not with the bundle. esbuild
 * hoists every `import ... from 'node:http'` of an ES module to the top of the bundle, so a
 * function would load, at its cold start, the built-ins of every client it may call later: the AWS
 * SDK's HTTP handler brings node:http (whose exports pull in Node's fetch implementation), https,
 * http2, tls, zlib and web streams, about 20 ms of CPU before any AWS call. Imported through `require()`
 * instead, as CommonJS does, a built-in is loaded when the module that uses it is first evaluated.
 * The SDK's clients are imported, not `import()`ed: an `import()` of a package bundles all of it
 * (every command of the service), where an import keeps what is used; the HTTP built-ins they
 * name then load with their first call (LOADED_ON_FIRST_USE below).
 *
 * The built-ins in LOADED_ON_FIRST_USE go further, from any importer (ours too): a module that
 * only names one of their exports loads it when it first uses that export. middy's core imports web
 * streams for its streamed responses (about 3 ms of CPU to load, on Node 22), Powertools Logger
 * node:crypto for log sampling and uuid for its random bytes (about 3 ms); a request that uses
 * neither pays for neither. Their exports are plain objects, so a stand-in object whose members
 * read the loaded module's is the module to its importers.
 */
const LOADED_ON_FIRST_USE = new Set(['crypto', 'stream/web', 'stream/promises', 'http', 'https', 'http2', 'zlib', 'tls']);
const builtinName = (path: string) => path.replace(/^node:/, '');

function builtinsWithTheirModule(): Plugin {
  const NAMESPACE = 'builtin-with-its-module';
  const nodeRequire = createRequire(import.meta.url);
  return {
    name: 'builtins-with-their-module',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^[a-z][\w/:]*$/ }, ({ path, importer, kind }) =>
        kind === 'import-statement' && isBuiltin(path) && (LOADED_ON_FIRST_USE.has(builtinName(path)) || /[/\\]node_modules[/\\]/.test(importer))
          ? { path, namespace: NAMESPACE }
          : undefined,
      );
      pluginBuild.onLoad({ filter: /.*/, namespace: NAMESPACE }, ({ path }) => {
        const required = `require(${JSON.stringify(path)})`;
        if (!LOADED_ON_FIRST_USE.has(builtinName(path))) return { contents: `module.exports = ${required};`, loader: 'js' };
        const members = Object.keys(nodeRequire(path) as object).map(
          (name) => `${JSON.stringify(name)}: { enumerable: true, get: () => load()[${JSON.stringify(name)}] }`,
        );
        return {
          contents: `let loaded;\nconst load = () => (loaded ??= ${required});\nmodule.exports = Object.defineProperties({}, {\n${members.join(',\n')}\n});`,
          loader: 'js',
        };
      });
    },
  };
}

/** pg's `./native` (required relatively, so an alias cannot reach it): see infra/bundle-shims/pg-native.ts. */
function pgWithoutNative(root: string): Plugin {
  return {
    name: 'pg-without-native',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^\.\/native$/ }, ({ resolveDir }) =>
        /[/\\]node_modules[/\\]pg[/\\]lib$/.test(resolveDir) ? { path: resolve(root, 'infra/bundle-shims/pg-native.ts') } : undefined,
      );
    },
  };
}

function copyDirectory(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const item of readdirSync(from, { withFileTypes: true })) {
    if (item.isDirectory()) copyDirectory(join(from, item.name), join(to, item.name));
    else if (item.isFile()) copyFileSync(join(from, item.name), join(to, item.name));
  }
}
