// On a touch screen the prompts say "tap", not "click", and name no keys (client/src/touch.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { touchWords } from '../src/touch.js';
import { translator, loadLanguage, LANGS } from '../src/i18n.js';

for (const lang of LANGS) await loadLanguage(lang);

const PROMPTS = ['prompt.take_back', 'prompt.expand_island', 'prompt.royal', 'prompt.migrate', 'prompt.land',
  'prompt.place_tile', 'prompt.place_tile_turn', 'prompt.turn_tile', 'prompt.confirm_expand'];
const CLICK = /click|cliquez|\bclic\b|\bklik\b|klicke|\bKlick\b|לחצו|Enter|Entrée/;
const args = { island: 'Samoa', beaches: '1, 2', colour: 'red', tile: 'p' };

test('every prompt speaks of tapping on a touch screen, in every language', () => {
  for (const lang of LANGS) {
    const mouse = touchWords(translator(lang), lang, false);
    const finger = touchWords(translator(lang), lang, true);
    assert.ok(PROMPTS.some((k) => CLICK.test(mouse(k, args))), `${lang}: the mouse prompts name clicks`);
    for (const k of PROMPTS) assert.doesNotMatch(finger(k, args), CLICK, `${lang} ${k}`);
  }
  assert.equal(touchWords(translator('en'), 'en', true)('prompt.royal'), 'Royal island: tap an island that holds only your boats.');
  assert.equal(touchWords(translator('de'), 'de', true)('prompt.take_back'),
    'Vorrat leer: tippe zuerst auf den Strand, von dem du ein Boot zurücknimmst.');
  // other strings are left as they are
  assert.equal(touchWords(translator('en'), 'en', true)('a11y.preview'), translator('en')('a11y.preview'));
});
