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
import { isBuiltin } from 'node:module';
import { build, type Plugin } from 'esbuild';

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

export interface BundleResult {
  outdir: string;
  /** name → absolute folder holding index.mjs (and any copied files). */
  dirs: Record<string, string>;
  /** name → bytes of the function's code (index.mjs). */
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

  await build({
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
    // pg-native is a native addon, which the bundles do not carry (infra/bundle-shims/pg-native.ts).
    external: ['pg-native'],
    plugins: [pgWithoutNative(root), builtinsWithTheirModule()],
    logLevel: 'warning',
  });

  const dirs: Record<string, string> = {};
  const sizes: Record<string, number> = {};
  for (const entry of entries) {
    const dir = join(outdir, entry.name);
    for (const { from, to } of entry.copyDirs ?? []) copyDirectory(resolve(root, from), join(dir, to));
    for (const [name, content] of Object.entries(entry.files ?? {})) writeFileSync(join(dir, name), content);
    dirs[entry.name] = dir;
    sizes[entry.name] = statSync(join(dir, 'index.mjs')).size;
  }
  if (options.sizesFile) {
    mkdirSync(dirname(options.sizesFile), { recursive: true });
    writeFileSync(options.sizesFile, `${JSON.stringify(sizes, Object.keys(sizes).sort(), 2)}\n`);
  }
  return { outdir, dirs, sizes, durationMs: Math.round(performance.now() - started) };
}

/**
 * Node's built-in modules load with the dependency that uses them, not with the bundle. esbuild
 * hoists every `import ... from 'node:http'` of an ES module to the top of the bundle, so a
 * function would load, at its cold start, the built-ins of every client it may call later: the AWS
 * SDK's HTTP handler brings node:http (whose exports pull in Node's fetch implementation), https,
 * http2, tls, zlib and web streams, about 20 ms of CPU before any AWS call. Imported through `require()`
 * instead, as CommonJS does, a built-in is loaded when the module that uses it is first evaluated
 * (the SDK's clients are `import()`ed on first need).
 */
function builtinsWithTheirModule(): Plugin {
  const NAMESPACE = 'builtin-with-its-module';
  return {
    name: 'builtins-with-their-module',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^[a-z][\w/:]*$/ }, ({ path, importer, kind }) =>
        kind === 'import-statement' && isBuiltin(path) && /[/\\]node_modules[/\\]/.test(importer) ? { path, namespace: NAMESPACE } : undefined,
      );
      pluginBuild.onLoad({ filter: /.*/, namespace: NAMESPACE }, ({ path }) => ({
        contents: `module.exports = require(${JSON.stringify(path)});`,
        loader: 'js',
      }));
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
