/**
 * Bundles every Lambda entry point in ONE esbuild pass at synth time.
 *
 * NodejsFunction starts one esbuild process per function (about 19 s for 40 functions here); one
 * build() call with an entryPoints map does the same work in well under a second. Each entry
 * lands in its own folder (`<outdir>/<name>/index.mjs`) that lambda.Code.fromAsset() zips as the
 * function's code, so every function still ships only what it imports. Powertools idempotency is
 * built by a small pass of its own into a file loaded on first use, the same file beside every
 * function with the idempotency layer (POWERTOOLS_IDEMPOTENCY_FILE).
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { readFile } from 'node:fs/promises';
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

/**
 * Powertools idempotency (about 18 kB minified), beside `index.mjs` in every function with the
 * idempotency layer: its code is used by requests that carry an Idempotency-Key only, and parsing
 * it was about 0.6 ms of every write's import. The shim reads it by this name.
 */
const POWERTOOLS_IDEMPOTENCY_FILE = 'powertools-idempotency.cjs';
/** What our sources' imports of the package (and of its `/persistence` entry) become in a bundle. */
const POWERTOOLS_IDEMPOTENCY_SHIM = 'infra/bundle-shims/powertools-idempotency-on-first-use.ts';

export interface BundleResult {
  outdir: string;
  /** name → absolute folder holding index.mjs (and any copied files). */
  dirs: Record<string, string>;
  /** name → bytes of the function's code: index.mjs, and the files beside it that it loads on first use (powertools-idempotency.cjs). */
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

  const bundled = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(entries.map((entry) => [`${entry.name}/index`, resolve(root, entry.entry)])),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: false,
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
    // The Lambda Node.js runtime ships AWS SDK v3; pg-native is an optional addon pg never loads here.
    external: ['@aws-sdk/*', 'pg-native'],
    alias: {
      ...bundleAliases(root),
      '@aws-lambda-powertools/idempotency': resolve(root, POWERTOOLS_IDEMPOTENCY_SHIM),
      '@aws-lambda-powertools/idempotency/persistence': resolve(root, POWERTOOLS_IDEMPOTENCY_SHIM),
    },
    plugins: [zodWithoutJsonSchema(), pgNodeOnly(root), middyWithoutStreams(root)],
    metafile: true,
    logLevel: 'warning',
  });
  const minify = options.minify ?? true;
  // Each file loaded on first use, and the functions whose code reads it (their bundle holds its shim).
  const sideFiles = [{ name: POWERTOOLS_IDEMPOTENCY_FILE, shim: POWERTOOLS_IDEMPOTENCY_SHIM, text: await buildPowertoolsIdempotencyFile(root, minify) }].map(
    (file) => ({
      ...file,
      // The metafile names inputs relative to the root, with forward slashes.
      users: new Set(
        Object.entries(bundled.metafile.outputs)
          .filter(([, output]) => file.shim in output.inputs)
          .map(([path]) => dirname(resolve(root, path))),
      ),
    }),
  );

  const dirs: Record<string, string> = {};
  const sizes: Record<string, number> = {};
  for (const entry of entries) {
    const dir = join(outdir, entry.name);
    for (const { from, to } of entry.copyDirs ?? []) copyDirectory(resolve(root, from), join(dir, to));
    for (const [name, content] of Object.entries(entry.files ?? {})) writeFileSync(join(dir, name), content);
    let size = statSync(join(dir, 'index.mjs')).size;
    for (const file of sideFiles.filter(({ users }) => users.has(dir))) {
      writeFileSync(join(dir, file.name), file.text);
      size += Buffer.byteLength(file.text);
    }
    dirs[entry.name] = dir;
    sizes[entry.name] = size;
  }
  if (options.sizesFile) {
    mkdirSync(dirname(options.sizesFile), { recursive: true });
    writeFileSync(options.sizesFile, `${JSON.stringify(sizes, Object.keys(sizes).sort(), 2)}\n`);
  }
  return { outdir, dirs, sizes, durationMs: Math.round(performance.now() - started) };
}

/**
 * Packages replaced by small stand-ins in bundles (each shim says why it is safe):
 * node-pg-migrate's jiti and glob (JS/TS migrations and globbing; ours are SQL files), the
 * Powertools JMESPath interpreter (our idempotency expressions are field names) and pgpass (Lambda
 * always passes a password). pg's socket probe and native client, and the streams middy imports for
 * response streaming, are replaced by plugins (pgNodeOnly, middyWithoutStreams).
 */
function bundleAliases(root: string): Record<string, string> {
  const shim = (name: string) => resolve(root, 'infra/bundle-shims', name);
  return {
    jiti: shim('jiti.ts'),
    glob: shim('glob.ts'),
    '@aws-lambda-powertools/jmespath': shim('jmespath.ts'),
    '@aws-lambda-powertools/jmespath/functions': shim('jmespath.ts'),
    pgpass: shim('pgpass.ts'),
  };
}

/** A file loaded on first use: `contents` (a module re-exporting a package) bundled as CommonJS, for `require()`. */
async function buildFileForFirstUse(root: string, contents: string, minify: boolean, options: Pick<BuildOptions, 'alias' | 'plugins'>): Promise<string> {
  const result = await build({
    absWorkingDir: root,
    stdin: { contents, resolveDir: root, loader: 'js' },
    bundle: true,
    write: false,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    mainFields: ['module', 'main'],
    minify,
    legalComments: 'none',
    ...options,
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

/** Builds `powertools-idempotency.cjs`: the package's two entries, with the JMESPath stand-in its functions bundle with. */
function buildPowertoolsIdempotencyFile(root: string, minify: boolean): Promise<string> {
  const contents = ["export * from '@aws-lambda-powertools/idempotency';", "export * from '@aws-lambda-powertools/idempotency/persistence';"].join('\n');
  return buildFileForFirstUse(root, contents, minify, { alias: bundleAliases(root) });
}

/**
 * zod's JSON Schema converters (about 16 kB minified of every bundle, a third of a millisecond or
 * more of every cold start): zod's classic schemas import them for `.toJSONSchema()` and Standard
 * Schema's `jsonSchema` property, but no function converts a schema at run time; the OpenAPI
 * document is generated when the app is synthesized and shipped beside its function as a file.
 * Those two imports get stand-ins generated from the real modules' export lists (so a zod upgrade
 * that adds an export still bundles) that throw when used: the `create…Method` factories, which
 * zod calls while building a property, return a method that throws.
 */
function zodWithoutJsonSchema(): Plugin {
  const NAMESPACE = 'zod-json-schema-stand-in';
  const message = 'zod JSON Schema conversion is not bundled (infra/bundle.ts, zodWithoutJsonSchema)';
  return {
    name: 'zod-without-json-schema',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^\.\.\/core\/(json-schema-processors|to-json-schema)\.js$/ }, ({ path, importer }) =>
        /[/\\]node_modules[/\\]zod[/\\]v4[/\\]classic[/\\]schemas\.js$/.test(importer)
          ? { path: resolve(dirname(importer), path), namespace: NAMESPACE }
          : undefined,
      );
      pluginBuild.onLoad({ filter: /.*/, namespace: NAMESPACE }, async ({ path }) => {
        const names = [...(await readFile(path, 'utf8')).matchAll(/^export (?:const|function) (\w+)/gm)].map((match) => match[1]);
        const standIn = (name: string) => (/^create\w*Method$/.test(name) ? `() => unavailable` : 'unavailable');
        const contents = [
          `function unavailable() { throw new Error(${JSON.stringify(message)}); }`,
          ...names.map((name) => `export const ${name} = ${standIn(name)};`),
        ].join('\n');
        return { contents, loader: 'js' };
      });
    },
  };
}

/**
 * pg's `./stream` and `./native` (required relatively, so an alias cannot reach them) replaced by
 * its Node.js socket branch and a native client that is not there: see
 * infra/bundle-shims/pg-stream.ts and pg-native.ts.
 */
function pgNodeOnly(root: string): Plugin {
  const shims: Record<string, string> = { './stream': 'pg-stream.ts', './native': 'pg-native.ts' };
  return {
    name: 'pg-node-only',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^\.\/(stream|native)$/ }, ({ path, resolveDir }) =>
        /[/\\]node_modules[/\\]pg[/\\]lib$/.test(resolveDir) ? { path: resolve(root, 'infra/bundle-shims', shims[path]) } : undefined,
      );
    },
  };
}

/** The streams @middy/core imports for response streaming, which no function uses: see infra/bundle-shims/middy-streams.ts. */
function middyWithoutStreams(root: string): Plugin {
  return {
    name: 'middy-without-streams',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^node:stream(\/promises|\/web)?$/ }, ({ importer }) =>
        /[/\\]node_modules[/\\]@middy[/\\]core[/\\]/.test(importer) ? { path: resolve(root, 'infra/bundle-shims/middy-streams.ts') } : undefined,
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
