// Tiles as the protocol writes them (proto/README.md, "Tiles"): a rank and a suit letter.
const SUITS = ['m', 'p', 's', 'z', 'f'];
/** The suit letter of a tile (`m`, `p`, `s`, `z` or `f`). */
export function suitOf(tile) {
    return tile.slice(-1);
}
/** The tile's place in the engine's order (万, 筒, 条, 字, 花; rank within), as hands are sorted. */
export function tileOrder(tile) {
    const suit = SUITS.indexOf(suitOf(tile));
    const rank = Number.parseInt(tile.slice(0, -1), 10);
    return (suit < 0 ? SUITS.length : suit) * 10 + (Number.isFinite(rank) ? rank : 0);
}
/** Tiles sorted as the server sorts a hand. */
export function sortTiles(tiles) {
    return [...tiles].sort((a, b) => tileOrder(a) - tileOrder(b));
}
const HONOURS_ZH = ['东', '南', '西', '北', '白', '发', '中'];
const HONOURS_EN = ['East', 'South', 'West', 'North', 'White', 'Green', 'Red'];
const FLOWERS_ZH = ['春', '夏', '秋', '冬', '梅', '兰', '竹', '菊'];
const FLOWERS_EN = ['Spring', 'Summer', 'Autumn', 'Winter', 'Plum', 'Orchid', 'Bamboo', 'Chrysanthemum'];
const NUMERALS_ZH = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const SUIT_ZH = { m: '万', p: '筒', s: '条' };
const SUIT_EN = { m: 'Characters', p: 'Dots', s: 'Bamboo' };
/** A tile's name as players say it: `{zh: '五万', en: '5 Characters'}`. */
export function tileName(tile) {
    const suit = suitOf(tile);
    const rank = Number.parseInt(tile.slice(0, -1), 10);
    if (suit === 'z')
        return { zh: HONOURS_ZH[rank - 1] ?? tile, en: HONOURS_EN[rank - 1] ?? tile };
    if (suit === 'f')
        return { zh: FLOWERS_ZH[rank - 1] ?? tile, en: FLOWERS_EN[rank - 1] ?? tile };
    const zh = SUIT_ZH[suit];
    const en = SUIT_EN[suit];
    if (!zh || !en)
        return { zh: tile, en: tile };
    return { zh: `${NUMERALS_ZH[rank - 1] ?? rank}${zh}`, en: `${rank} ${en}` };
}
