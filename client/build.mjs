// Builds client/dist/: index.html, app.js (the ES module bundle), one chunk per language's strings and app.css.
import { build } from 'esbuild';
import { mkdirSync, copyFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist, { recursive: true });
await build({
  entryPoints: { app: join(here, 'src/main.js') },
  bundle: true, format: 'esm', target: ['es2020'], minify: true, sourcemap: true,
  // the dynamic imports of i18n.js become chunks: each language's strings are fetched only when needed
  splitting: true, chunkNames: '[name]-[hash]', charset: 'utf8',
  outdir: dist, logLevel: 'warning', legalComments: 'none',
});
await build({ entryPoints: { app: join(here, 'src/app.css') }, bundle: true, minify: true, outdir: dist, logLevel: 'warning' });
copyFileSync(join(here, 'index.html'), join(dist, 'index.html'));
console.log('client built into', dist);
