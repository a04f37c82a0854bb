// Builds client/dist/: index.html, the ES module bundle (app-<hash>.js, one chunk per language's strings)
// and app-<hash>.css. Every name but index.html carries a hash of its content, so a server may let browsers
// keep them for a year (server/app.py, deploy/nginx.conf) and index.html, always revalidated, names the
// current ones. Every file is also written precompressed beside itself (.br, .gz) for the server and nginx
// to send as they are, at the best compression levels, paid once here instead of at every request.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(process.argv[2] || join(here, 'dist')); // `node build.mjs [outdir]`
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });

const hashed = { entryNames: '[name]-[hash]', chunkNames: '[name]-[hash]', assetNames: '[name]-[hash]' };
const js = await build({
  entryPoints: { app: join(here, 'src/main.js') },
  bundle: true, format: 'esm', target: ['es2020'], minify: true, sourcemap: true,
  // the dynamic imports of i18n.js become chunks: each language's strings are fetched only when needed
  splitting: true, charset: 'utf8', ...hashed,
  outdir: dist, logLevel: 'warning', legalComments: 'none', metafile: true,
});
const css = await build({
  entryPoints: { app: join(here, 'src/app.css') }, bundle: true, minify: true, ...hashed,
  outdir: dist, logLevel: 'warning', metafile: true,
});

/** The output file built from `entry`, and the files it imports statically (needed before it runs). */
function outputOf(metafile, entry) {
  for (const [path, out] of Object.entries(metafile.outputs)) {
    if (out.entryPoint === entry) {
      return { file: basename(path), imports: out.imports.filter((i) => i.kind === 'import-statement').map((i) => basename(i.path)) };
    }
  }
  throw new Error(`no output for ${entry}`);
}
const app = outputOf(js.metafile, 'src/main.js');
const style = outputOf(css.metafile, 'src/app.css');

// index.html names the hashed files; the entry's static imports are preloaded with it (no second round trip)
let page = readFileSync(join(here, 'index.html'), 'utf8');
const swap = (from, to) => {
  if (!page.includes(from)) throw new Error(`index.html lacks ${from}`);
  page = page.replace(from, to);
};
swap('href="app.css"', `href="${style.file}"`);
swap('src="app.js"', `src="${app.file}"`);
const preloads = app.imports.map((f) => `  <link rel="modulepreload" href="${f}">\n`).join('');
swap('</head>', `${preloads}</head>`);
writeFileSync(join(dist, 'index.html'), page);
// the web push service worker (src/sw.js) keeps its name: a worker's scope is the folder of its URL, and the
// browser checks it for updates itself (served revalidated, like the page)
writeFileSync(join(dist, 'sw.js'), readFileSync(join(here, 'src/sw.js')));

// precompressed copies of what pages load (not the source maps, for developer tools only), kept where smaller
for (const name of readdirSync(dist).filter((f) => /\.(js|css|html)$/.test(f))) {
  const path = join(dist, name);
  const data = readFileSync(path);
  const br = brotliCompressSync(data, { params: {
    [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
    [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  } });
  const gz = gzipSync(data, { level: 9 });
  if (br.length < data.length) writeFileSync(`${path}.br`, br);
  if (gz.length < data.length) writeFileSync(`${path}.gz`, gz);
}
console.log(`client built into ${dist}: index.html, ${app.file}, ${style.file}`);
