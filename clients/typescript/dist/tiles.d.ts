/** A tile in the protocol's notation: `1m`…`9m`, `1p`…`9p`, `1s`…`9s`, `1z`…`7z`, `1f`…`8f`. */
export type Tile = string;
/** The suit letter of a tile (`m`, `p`, `s`, `z` or `f`). */
export declare function suitOf(tile: Tile): string;
/** The tile's place in the engine's order (万, 筒, 条, 字, 花; rank within), as hands are sorted. */
export declare function tileOrder(tile: Tile): number;
/** Tiles sorted as the server sorts a hand. */
export declare function sortTiles(tiles: readonly Tile[]): Tile[];
/** A tile's name as players say it: `{zh: '五万', en: '5 Characters'}`. */
export declare function tileName(tile: Tile): {
    zh: string;
    en: string;
};
