// Whether the browser can draw Chinese characters. The tiles are SVG drawn here, but their
// characters (萬, 東, 發, 中, the flowers) and the fan names come from a system font; without a
// CJK font they are empty boxes. Every tile also carries a Latin index (a digit, or E S W N,
// C F for the dragons) so it stays readable, and the page says what it needs.

import { el } from './dom.js';

/** Draws `text` with the page's font and returns its pixels. */
function pixels(text) {
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 32;
  const g = canvas.getContext('2d');
  if (!g) return null;
  g.font = `24px ${getComputedStyle(document.documentElement).fontFamily}`;
  g.fillStyle = '#000';
  g.textBaseline = 'top';
  g.fillText(text, 0, 0);
  return g.getImageData(0, 0, canvas.width, canvas.height).data;
}

/**
 * Whether CJK characters render: 萬 and 中 are compared with a private-use code point, which no
 * font draws. When both look like it (the same missing-glyph box, or nothing), no font has them.
 */
export function hasCjkFont() {
  const missing = pixels('\uE000\uE000');
  const probe = pixels('萬中');
  if (!missing || !probe) return true;
  for (let i = 0; i < probe.length; i++) if (probe[i] !== missing[i]) return true;
  return false;
}

/** Shows a notice under the top bar when no CJK font is installed. */
export function checkFont() {
  if (hasCjkFont()) return;
  document.documentElement.classList.add('no-cjk');
  const notice = el('div', { class: 'font-notice', dataset: { testid: 'font-notice' }, role: 'note' },
    'This device has no Chinese font, so tile characters and fan names show as boxes. ',
    'The tiles keep their corner indices (1–9, E S W N, C F for the dragons); ',
    'for the full faces install a CJK font, e.g. Noto Sans CJK (Debian: fonts-noto-cjk).');
  document.body.insertBefore(notice, document.getElementById('main'));
}
