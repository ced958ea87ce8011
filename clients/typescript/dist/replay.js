// Replays without rules: the server serves a finished hand as a stream of messages
// (`GET /api/tables/{table}/hands/{n}/stream`), every seat's own events included, and the
// reducer plays it forward. Reduced once per seat, it gives every hand at every step.
import { fromSnapshot, reduce } from './reducer.js';
/** The table before the hand, as `seat` follows it (null: as a spectator). */
export function replayStart(stream, seat) {
    const snapshot = {
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
export function replaySteps(stream, seat) {
    const steps = [replayStart(stream, seat)];
    for (const frame of stream.frames) {
        const last = steps[steps.length - 1];
        steps.push(reduce(last, frame));
    }
    return steps;
}
