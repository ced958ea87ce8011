// Replays without rules: the server serves a finished hand as a stream of messages
// (`GET /api/tables/{table}/hands/{n}/stream`), every seat's own events included, and the
// reducer plays it forward. Reduced once per seat, it gives every hand at every step.

import type { HandStream } from './generated/api.js';
import type { ServerFrame, TableSnapshot } from './generated/protocol.js';
import { fromSnapshot, reduce, type TableState } from './reducer.js';

/** The table before the hand, as `seat` follows it (null: as a spectator). */
export function replayStart(stream: HandStream, seat: number | null): TableState {
  const snapshot: TableSnapshot = {
    table: stream.table,
    ruleset: stream.ruleset,
    seat,
    seats: stream.seats.map((s) => ({ seat: s.seat, name: s.name, status: s.player ? 'connected' : 'bot' })),
    scores: [...stream.scores],
    hand_no: stream.hand_no,
    draw_bonus: stream.draw_bonus,
  };
  return fromSnapshot(snapshot);
}

/** Every step of the hand as `seat` follows it: the start, then the table after each message. */
export function replaySteps(stream: HandStream, seat: number | null): TableState[] {
  const steps = [replayStart(stream, seat)];
  for (const frame of stream.frames) {
    const last = steps[steps.length - 1] as TableState;
    steps.push(reduce(last, frame as ServerFrame));
  }
  return steps;
}
