import type { HandStream } from './generated/api.js';
import { type TableState } from './reducer.js';
/** The table before the hand, as `seat` follows it (null: as a spectator). */
export declare function replayStart(stream: HandStream, seat: number | null): TableState;
/** Every step of the hand as `seat` follows it: the start, then the table after each message. */
export declare function replaySteps(stream: HandStream, seat: number | null): TableState[];
