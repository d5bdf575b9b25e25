/**
 * Bundles every Lambda entry point in ONE esbuild pass at synth time.
 *
 * NodejsFunction starts one esbuild process per function (about 19 s for 40 functions here); one
 * build() call with an entryPoints map does the same work in well under a second. Each entry
 * lands in its own folder (`<outdir>/<name>/index.mjs`) that lambda.Code.fromAsset() zips as the
 * function's code, so every function still ships only what it imports, the AWS SDK clients it
 * calls included: the SDK is bundled, so the versions package.json pins are the ones that run, not
 * the runtime's. zod is built by a small pass of its own into a file loaded on first use, beside
 * every function that validates (zodOnFirstUse).
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { build, transform, type BuildOptions, type Plugin } from 'esbuild';

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

/** zod's members, beside `index.mjs` in every function that uses zod (zodOnFirstUse); the shim loads it by this name. */
const ZOD_FILE = 'zod.cjs';
/** What our sources' `import { z } from 'zod'` becomes in a bundle, relative to the repository root. */
const ZOD_SHIM = 'infra/bundle-shims/zod-on-first-use.ts';

export interface BundleResult {
  outdir: string;
  /** name → absolute folder holding index.mjs (and any copied files). */
  dirs: Record<string, string>;
  /** name → bytes of the function's code: index.mjs, and zod.cjs beside it when it validates. */
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

  const zodMembers = new Set<string>();
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
    // pg-native is a native addon, which the bundles do not carry (infra/bundle-shims/pg-native.ts).
    external: ['pg-native'],
    plugins: [zodOnFirstUse(root, zodMembers), zodWithoutJsonSchema(), pgWithoutNative(root), builtinsWithTheirModule()],
    metafile: true,
    logLevel: 'warning',
  });
  const minify = options.minify ?? true;
  // Each file loaded on first use, and the functions whose code reads it (their bundle holds its shim).
  const sideFiles = [{ name: ZOD_FILE, shim: ZOD_SHIM, text: await buildZodFile(root, zodMembers, minify) }].map((file) => ({
    ...file,
    // The metafile names inputs relative to the root, with forward slashes.
    users: new Set(
      Object.entries(bundled.metafile.outputs)
        .filter(([, output]) => file.shim in output.inputs)
        .map(([path]) => dirname(resolve(root, path))),
    ),
  }));

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
 * zod in its own file, loaded on first use. Our sources' `import { z } from 'zod'` becomes the
 * namespace of infra/bundle-shims/zod-on-first-use.ts, which loads `zod.cjs` (written beside
 * `index.mjs`) when a member is first read. Compiling zod's code and evaluating its module was
 * most of a cold read's start, and a read by id uses no zod (shared/schemas/lazy.ts says how
 * schemas wait for their first use). `zod.cjs` holds only the zod members our sources name
 * (`z.object`, `z.iso`, ...), collected while the functions are bundled: the whole namespace,
 * with its 40-odd locales, is about 450 kB minified; what we use is about 80 kB.
 */
function zodOnFirstUse(root: string, members: Set<string>): Plugin {
  const NAMED_Z_IMPORT = /^import\s*\{\s*z\s*\}\s*from\s*(['"])zod\1;?[ \t]*$/gm;
  const MEMBER = /\bz\.([A-Za-z_$][\w$]*)/g;
  const prefix = `${root}/`;
  const shim = JSON.stringify(resolve(root, ZOD_SHIM));
  return {
    name: 'zod-on-first-use',
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
        // Only our sources; dependencies load as esbuild would load them anyway.
        if (!path.startsWith(prefix) || path.includes('/node_modules/')) return undefined;
        const source = await readFile(path, 'utf8');
        if (!source.match(NAMED_Z_IMPORT)) return undefined;
        // Members read at run time: the transpiled code, so names used only in types (`z.infer`, `z.core.$ZodIssue`) do not count.
        const { code } = await transform(source, { loader: 'ts' });
        for (const match of code.matchAll(MEMBER)) members.add(match[1]);
        return { contents: source.replace(NAMED_Z_IMPORT, `import { z } from ${shim};`), loader: 'ts' };
      });
    },
  };
}

/** A file loaded on first use: `contents` (a module re-exporting a package) bundled as CommonJS, for `require()`. */
async function buildFileForFirstUse(root: string, contents: string, minify: boolean, options: Pick<BuildOptions, 'plugins'>): Promise<string> {
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

/** Builds `zod.cjs`: the members named, tree-shaken. */
async function buildZodFile(root: string, members: Set<string>, minify: boolean): Promise<string> {
  const exported = new Set(Object.keys(await import('zod')));
  const names = [...members].filter((name) => exported.has(name)).sort();
  return buildFileForFirstUse(root, `export { ${names.join(', ')} } from 'zod';`, minify, { plugins: [zodWithoutJsonSchema()] });
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
