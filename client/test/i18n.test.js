// The strings of each language are a module of their own, loaded on demand; the lookup API stays synchronous.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { DICTS, LANGS, loadLanguage, translator } from '../src/i18n.js';

test('nothing is loaded until asked; a language comes with English, its fallback, beside it', async () => {
  assert.deepEqual(Object.keys(DICTS), []);
  assert.equal(translator('fr')('lobby.open'), 'lobby.open');
  await loadLanguage('fr');
  assert.equal(translator('fr')('lobby.open'), 'Tables ouvertes');
  assert.ok(!('de' in DICTS) && !('he' in DICTS) && !('nl' in DICTS), Object.keys(DICTS));
  await loadLanguage('en'); // asked for with French, not waited for
  assert.deepEqual(Object.keys(DICTS).sort(), ['en', 'fr']);
  // a key French lacks reads in English; one nobody has reads as itself
  DICTS.en['test.only_english'] = 'Only in English, {n}';
  assert.equal(translator('fr')('test.only_english', { n: 2 }), 'Only in English, 2');
  assert.equal(translator('fr')('test.nobody'), 'test.nobody');
  delete DICTS.en['test.only_english'];
  await assert.rejects(loadLanguage('xx'), /unknown language/);
});

test('every language has exactly the keys of English, as a module of its own in lang/', async () => {
  assert.deepEqual(readdirSync(new URL('../src/lang/', import.meta.url)).sort(), LANGS.map((l) => `${l}.js`).sort());
  await Promise.all(LANGS.map(loadLanguage));
  const keys = Object.keys(DICTS.en).sort();
  for (const lang of LANGS) assert.deepEqual(Object.keys(DICTS[lang]).sort(), keys, lang);
  // no module of the client imports a language statically: only i18n.js, on demand
  const src = new URL('../src/', import.meta.url);
  const files = readdirSync(src, { recursive: true }).filter((f) => f.endsWith('.js'));
  for (const f of files) {
    assert.doesNotMatch(readFileSync(new URL(f, src), 'utf8'), /^import[^;]*lang\/\w+\.js/m, f);
  }
});

test('a refused request is said in the person\'s language for the codes a person meets, else the server\'s message', async () => {
  const { refusal } = await import('../src/i18n.js');
  await Promise.all(LANGS.map(loadLanguage));
  const codes = ['too_many_search_bots', 'search_bots_busy', 'barred', 'name_taken', 'unavailable', 'too_many_rooms', 'rate_limited'];
  for (const lang of LANGS) {
    const t = translator(lang);
    const server = t('err.server', { message: 'x' }).replace('x', '');
    const said = codes.map((code) => refusal(t, { code, message: 'the server says so' }));
    for (const [i, s] of said.entries()) {
      assert.ok(!s.includes('the server says so') && !s.startsWith(server) && !s.startsWith('refusal.'), `${lang} ${codes[i]}: ${s}`);
      if (lang !== 'en') assert.notEqual(s, refusal(translator('en'), { code: codes[i] }), `${lang} ${codes[i]}`);
    }
  }
  assert.equal(refusal(translator('en'), { code: 'not_host', message: 'only the host may do this' }), 'Server: only the host may do this');
  assert.equal(refusal(translator('en'), { code: 'not_host' }), 'Server: not_host');
});
