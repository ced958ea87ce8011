// Tile faces, drawn as inline SVG made here: no images or fonts are fetched.
//
// Tiles arrive on the wire in the project notation (proto/README.md, docs/RULES.md):
// `1m`–`9m` 万 characters, `1p`–`9p` 筒 dots, `1s`–`9s` 条 bamboo, `1z`–`7z` the honors
// (East 东, South 南, West 西, North 北, White 白, Green 发, Red 中) and `1f`–`8f` the flowers
// (春 夏 秋 冬 梅 兰 竹 菊). The letters `E S W N` and `C F P` are read as honors too. Order and
// names are the SDK's (`tileOrder`, `tileName`); the faces are the page's own. Every face
// carries a Latin index in its corner, as tiles sold abroad do, so that it reads without a
// Chinese font.

import { tileName as sdkTileName, tileOrder } from '/sdk/index.js';

export { tileOrder };

/** Names of the numbered suits, for labels and buttons. */
export const SUIT_NAMES = { m: '万', p: '筒', s: '条' };

const LETTER_HONORS = { E: '1z', S: '2z', W: '3z', N: '4z', P: '5z', F: '6z', C: '7z' };
const NUMERALS = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const HONORS = ['東', '南', '西', '北', '白', '發', '中'];
/** The honours' corner indices: the winds' initials, and C(hung), F(at) for red and green. */
const HONOR_INDEX = ['E', 'S', 'W', 'N', 'P', 'F', 'C'];
const FLOWERS = ['春', '夏', '秋', '冬', '梅', '蘭', '竹', '菊'];
const WIND_CHARS = ['东', '南', '西', '北'];

const RED = '#c0392b';
const GREEN = '#1e7a46';
const BLUE = '#1f4f96';
const INK = '#1d232b';

/**
 * Parses a tile code into `{ code, suit, rank }`, or null when it is not a tile.
 * `code` is the canonical notation (`5m`, `1z`, `3f`).
 */
export function parseTile(text) {
  if (typeof text !== 'string') return null;
  const code = LETTER_HONORS[text] ?? text;
  const m = /^([1-9])([mpszf])$/.exec(code);
  if (!m) return null;
  const rank = Number(m[1]);
  const suit = m[2];
  if ((suit === 'z' && rank > 7) || (suit === 'f' && rank > 8)) return null;
  return { code, suit, rank };
}

/** The suit letter of a tile code (`m`, `p`, `s`, `z`, `f`), or '' for garbage. */
export function suitOf(code) {
  return parseTile(code)?.suit ?? '';
}

/**
 * Sorts tiles in place order; with `voidSuit` (定缺) the tiles of that suit go last, where
 * the player will throw them first.
 */
export function sortTiles(tiles, voidSuit = null) {
  const key = (c) => tileOrder(c) + (voidSuit && suitOf(c) === voidSuit ? 100 : 0);
  return [...tiles].sort((a, b) => key(a) - key(b));
}

/** The wind name of a tile code (`1z` → 东) or of a seat wind index 0..3. */
export function windChar(codeOrIndex) {
  if (typeof codeOrIndex === 'number') return WIND_CHARS[codeOrIndex] ?? '?';
  const t = parseTile(codeOrIndex);
  return t && t.suit === 'z' && t.rank <= 4 ? WIND_CHARS[t.rank - 1] : '?';
}

/** A tile's name in Chinese and English: "五万 5 Characters", "东 East". */
export function tileName(code) {
  const t = parseTile(code);
  if (!t) return String(code);
  const { zh, en } = sdkTileName(t.code);
  return `${zh} ${en}`;
}

// ---- SVG faces ----

function text(x, y, size, fill, s, weight = 700) {
  return `<text x="${x}" y="${y}" font-size="${size}" fill="${fill}" font-weight="${weight}" text-anchor="middle" dominant-baseline="central">${s}</text>`;
}

/** A 筒 pip: a ring around a dot. */
function dot(x, y, r, color) {
  return `<circle cx="${x}" cy="${y}" r="${r}" fill="${color}"/>` +
    `<circle cx="${x}" cy="${y}" r="${r * 0.68}" fill="#fffdf5"/>` +
    `<circle cx="${x}" cy="${y}" r="${r * 0.4}" fill="${color}"/>`;
}

/** A 条 stick: a rounded bamboo segment with a node across its middle. */
function stick(x, y, color, h = 19) {
  const w = 7;
  return `<rect x="${x - w / 2}" y="${y - h / 2}" width="${w}" height="${h}" rx="3" fill="${color}"/>` +
    `<rect x="${x - w / 2 - 0.6}" y="${y - 1}" width="${w + 1.2}" height="2" fill="#fffdf5"/>`;
}

// Pip positions on a 60 × 80 face, per rank, as [x, y, color].
const DOTS = {
  1: [[30, 40, RED]],
  2: [[30, 22, GREEN], [30, 58, BLUE]],
  3: [[15, 17, BLUE], [30, 40, RED], [45, 63, GREEN]],
  4: [[18, 22, BLUE], [42, 22, GREEN], [18, 58, GREEN], [42, 58, BLUE]],
  5: [[17, 18, BLUE], [43, 18, GREEN], [30, 40, RED], [17, 62, GREEN], [43, 62, BLUE]],
  6: [[19, 16, GREEN], [41, 16, GREEN], [19, 42, RED], [41, 42, RED], [19, 64, RED], [41, 64, RED]],
  7: [[14, 13, GREEN], [30, 21, GREEN], [46, 29, GREEN], [19, 48, RED], [41, 48, RED], [19, 67, RED], [41, 67, RED]],
  8: [[19, 12, BLUE], [41, 12, BLUE], [19, 30, BLUE], [41, 30, BLUE], [19, 49, BLUE], [41, 49, BLUE], [19, 68, BLUE], [41, 68, BLUE]],
  9: [[15, 16, BLUE], [30, 16, BLUE], [45, 16, BLUE], [15, 40, RED], [30, 40, RED], [45, 40, RED], [15, 64, GREEN], [30, 64, GREEN], [45, 64, GREEN]],
};
const DOT_RADIUS = { 1: 17, 2: 11, 3: 9.5, 4: 10, 5: 9, 6: 8.5, 7: 7.5, 8: 7.2, 9: 7.2 };

const STICKS = {
  2: [[30, 22, GREEN], [30, 58, GREEN]],
  3: [[30, 22, GREEN], [19, 58, GREEN], [41, 58, GREEN]],
  4: [[19, 22, GREEN], [41, 22, BLUE], [19, 58, BLUE], [41, 58, GREEN]],
  5: [[17, 20, GREEN], [43, 20, BLUE], [30, 40, RED], [17, 60, BLUE], [43, 60, GREEN]],
  6: [[16, 22, GREEN], [30, 22, GREEN], [44, 22, GREEN], [16, 58, BLUE], [30, 58, BLUE], [44, 58, BLUE]],
  7: [[30, 14, RED], [16, 40, GREEN], [30, 40, GREEN], [44, 40, GREEN], [16, 66, GREEN], [30, 66, GREEN], [44, 66, GREEN]],
  8: [[12, 22, GREEN], [24, 22, GREEN], [36, 22, GREEN], [48, 22, GREEN], [12, 58, BLUE], [24, 58, BLUE], [36, 58, BLUE], [48, 58, BLUE]],
  9: [[16, 15, GREEN], [30, 15, RED], [44, 15, BLUE], [16, 40, GREEN], [30, 40, RED], [44, 40, BLUE], [16, 65, GREEN], [30, 65, RED], [44, 65, BLUE]],
};

function faceBody(t) {
  switch (t.suit) {
    case 'm':
      return text(30, 27, 25, INK, NUMERALS[t.rank - 1]) + text(30, 58, 26, RED, '萬') +
        text(8, 8, 10, INK, String(t.rank), 600);
    case 'p':
      return DOTS[t.rank].map(([x, y, c]) => dot(x, y, DOT_RADIUS[t.rank], c)).join('');
    case 's':
      if (t.rank === 1) {
        // 一条 is traditionally a bird; a tall red-and-green stick keeps it apart here.
        return stick(30, 40, GREEN, 46) + `<circle cx="30" cy="40" r="6" fill="${RED}"/>` +
          text(8, 8, 10, INK, '1', 600);
      }
      return STICKS[t.rank].map(([x, y, c]) => stick(x, y, c, t.rank >= 6 ? 17 : 21)).join('');
    case 'z': {
      if (t.rank === 5) {
        return `<rect x="13" y="15" width="34" height="50" rx="3" fill="none" stroke="${BLUE}" stroke-width="4"/>` +
          `<rect x="19" y="21" width="22" height="38" rx="2" fill="none" stroke="${BLUE}" stroke-width="1.5"/>`;
      }
      const color = t.rank === 6 ? GREEN : t.rank === 7 ? RED : INK;
      return text(30, 41, 36, color, HONORS[t.rank - 1]) + text(8, 8, 10, BLUE, HONOR_INDEX[t.rank - 1], 600);
    }
    case 'f': {
      const color = t.rank <= 4 ? GREEN : RED;
      return text(30, 44, 30, color, FLOWERS[t.rank - 1]) + text(50, 10, 11, BLUE, String(t.rank), 600);
    }
    default:
      return '';
  }
}

const faceCache = new Map();

/** The SVG markup of a tile's face (cached per code). Unknown codes get a '?' face. */
export function faceSvg(code) {
  let svg = faceCache.get(code);
  if (!svg) {
    const t = parseTile(code);
    const body = t ? faceBody(t) : text(30, 40, 30, INK, '?');
    svg = `<svg class="face" viewBox="0 0 60 80" aria-hidden="true" focusable="false">${body}</svg>`;
    faceCache.set(code, svg);
  }
  return svg;
}

/**
 * A tile element. Options: `size` ('hand' | 'river' | 'small'), `wild` (the ruleset's wild
 * kind, marked with a gold edge), `classes` (more CSS classes), `button` (a <button> that can
 * be clicked), `attrs` (extra attributes, e.g. data-testid).
 */
export function tileElement(code, opts = {}) {
  const el = document.createElement(opts.button ? 'button' : 'span');
  el.className = `tile tile-${opts.size ?? 'river'}`;
  if (opts.classes) el.classList.add(...opts.classes);
  if (opts.wild && opts.wild === code) el.classList.add('wild');
  el.dataset.tile = code;
  el.title = tileName(code);
  el.setAttribute('aria-label', tileName(code));
  if (opts.button) el.type = 'button';
  for (const [k, v] of Object.entries(opts.attrs ?? {})) el.setAttribute(k, v);
  el.innerHTML = faceSvg(code);
  return el;
}

/** A face-down tile (another seat's concealed tile, or a concealed kong seen from outside). */
export function backElement(size = 'small') {
  const el = document.createElement('span');
  el.className = `tile tile-${size} back`;
  el.setAttribute('aria-hidden', 'true');
  return el;
}
