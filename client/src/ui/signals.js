// "Your turn": when a decision becomes this person's, the page title and favicon say so, a short sound plays
// if sound is on (a setting kept in localStorage), and a system notification is shown when the tab is
// hidden (permission asked only when the person presses the button). Also the clock's 10-second warning.

const SOUND_KEY = 'tongiaki.sound';
const ICON = (dot) => 'data:image/svg+xml,' + encodeURIComponent(
  "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 10 10'><polygon points='10,5 7.5,9.3 2.5,9.3 0,5 2.5,0.7 7.5,0.7' fill='#2a7fb0'/>" +
  "<circle cx='5' cy='5' r='2.4' fill='#e9d39a'/>" + (dot ? "<circle cx='7.6' cy='2.6' r='2.4' fill='#e07a1f' stroke='#fff' stroke-width='.6'/>" : '') + '</svg>');

export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === '1'; } catch { return false; }
}

export function setSound(on) {
  try { localStorage.setItem(SOUND_KEY, on ? '1' : '0'); } catch { /* ignore */ }
}

let audio = null;
/** A short two-note chime (`warn`: one low note), made with WebAudio: no sound file to fetch. */
export function chime(warn = false) {
  try {
    audio = audio || new (globalThis.AudioContext || globalThis.webkitAudioContext)();
    const notes = warn ? [440] : [660, 880];
    notes.forEach((f, i) => {
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = f; o.type = 'sine';
      const t0 = audio.currentTime + i * 0.16;
      g.gain.setValueAtTime(0.0001, t0);
      g.gain.exponentialRampToValueAtTime(0.2, t0 + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, t0 + 0.3);
      o.connect(g).connect(audio.destination);
      o.start(t0); o.stop(t0 + 0.32);
    });
  } catch { /* no audio here */ }
}

function favicon() {
  let link = document.querySelector('link[rel=icon]');
  if (!link) { link = document.createElement('link'); link.rel = 'icon'; document.head.appendChild(link); }
  return link;
}

export class TurnSignals {
  /** state: TableState; t: translator; isMine(): whether the decision on screen is this person's. */
  constructor(state, t, isMine) {
    this.state = state; this.t = t; this.isMine = isMine;
    this.mine = false;
    this._unsub = state.subscribe(() => this.update());
  }

  update() {
    const mine = !!this.isMine();
    if (mine === this.mine) return;
    this.mine = mine;
    const link = favicon();
    link.href = ICON(mine);
    link.dataset.turn = mine ? 'yes' : 'no';
    document.title = mine ? this.t('turn.title', { app: this.t('app.title') }) : this.t('app.title');
    if (!mine) return;
    if (soundOn()) chime();
    if (document.hidden && globalThis.Notification?.permission === 'granted') {
      try { new Notification(this.t('app.title'), { body: this.t('turn.notify'), tag: 'tongiaki-turn' }); } catch { /* ignore */ }
    }
  }

  /** The clock's last seconds began (on this person's decision, with sound on: a low note). */
  warn() { if (this.isMine() && soundOn()) chime(true); }

  destroy() {
    this._unsub();
    if (this.mine) { document.title = this.t('app.title'); favicon().href = ICON(false); }
  }
}
