// A headless bot on the SDK: it plays a seat as any client does (HTTP to get a seat, the table
// connection, the reducer's state, one of the prompt's legal actions), so it is the path an
// outside AI takes. Its policy is a function of what the seat knows: swap in your own.

import type { WireAction } from './generated/protocol.js';
import { TableConnection, type ConnectionOptions, RequestError } from './connection.js';
import type { HttpClient } from './http.js';
import type { TableState } from './reducer.js';

/** Chooses one of `legal` for the seat, knowing what `state` shows. */
export type Policy = (state: TableState, legal: WireAction[]) => WireAction | Promise<WireAction>;

/** A deterministic generator of numbers in [0, 1) (mulberry32), for seeded play. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A policy that always wins when it may and otherwise picks at random, weighted toward what
 * makes a hand eventful (claims, kongs), so that a few hundred hands cover every kind of event.
 */
export function eventfulPolicy(random: () => number): Policy {
  const weight = (a: WireAction): number => {
    switch (a.type) {
      case 'win':
      case 'self_draw_win':
        return 1000;
      case 'concealed_kong':
      case 'added_kong':
      case 'exposed_kong':
        return 6;
      case 'pung':
        return 4;
      case 'chow':
        return 2;
      case 'pass':
        return 3;
      case 'declare_ready':
        return 2;
      case 'swap_mark':
        return 1;
      case 'swap_done':
        return 2;
      default:
        return 1;
    }
  };
  return (_state, legal) => {
    const total = legal.reduce((n, a) => n + weight(a), 0);
    let pick = random() * total;
    for (const a of legal) {
      pick -= weight(a);
      if (pick < 0) return a;
    }
    const last = legal[legal.length - 1];
    if (!last) throw new Error('a prompt without legal actions');
    return last;
  };
}

export interface PlayOptions {
  http: HttpClient;
  /** The table to play (the seat is the signed-in player's). */
  table: string;
  policy: Policy;
  /** Passed on to the connection (WebSocket constructor, timers …). */
  connection?: Partial<Omit<ConnectionOptions, 'url' | 'token'>>;
  /** Called with the connection once it exists (to watch frames, drop it in tests …). */
  onConnection?: (c: TableConnection) => void;
}

/** What a seat's play came to. */
export interface PlayResult {
  /** How the connection ended (`ended` once the match is over). */
  reason: string;
  code: number;
  state: TableState;
  actions: number;
  /** Actions the server refused (a prompt outdated on the way, say). */
  refused: number;
  connections: number;
}

/** Plays the signed-in player's seat at `table` until the connection is over for good. */
export function playSeat(options: PlayOptions): Promise<PlayResult> {
  const { http } = options;
  const connection = new TableConnection({
    ...options.connection,
    url: http.tableUrl(options.table),
    token: () => http.tokens.get(),
  });
  options.onConnection?.(connection);
  let actions = 0;
  let refused = 0;
  let deciding = false;
  // The prompt answered last: a state is a new object after every frame, so prompts are told
  // apart by what they say.
  let answered = '';
  const key = (p: TableState['prompt']): string => (p ? JSON.stringify(p) : '');
  const decide = async (): Promise<void> => {
    const prompt = connection.state.prompt;
    const k = key(prompt);
    if (deciding || !prompt || prompt.legal.length === 0 || k === answered) return;
    deciding = true;
    try {
      const action = await options.policy(connection.state, prompt.legal);
      // The prompt may have been answered or outdated meanwhile.
      if (key(connection.state.prompt) !== k) return;
      answered = k;
      actions += 1;
      await connection.act(action);
    } catch (e) {
      if (!(e instanceof RequestError)) throw e;
      if (e.code === 'connection_lost' || e.code === 'not_connected') {
        // Not answered: the stream after reconnecting brings the prompt again.
        answered = '';
      } else {
        refused += 1;
      }
    } finally {
      deciding = false;
    }
    // A prompt that came while this one was being answered.
    if (connection.isOpen) void decide();
  };
  return new Promise((resolve) => {
    connection.on('state', () => void decide());
    connection.on('status', (s) => {
      if (s.kind === 'closed') {
        resolve({
          reason: s.reason,
          code: s.code,
          state: connection.state,
          actions,
          refused,
          connections: connection.connections,
        });
      }
    });
    connection.connect();
  });
}
