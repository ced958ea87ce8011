#!/usr/bin/env node
// A headless bot that plays one seat through the SDK, as any client does.
//
//   mahjong-bot --server http://127.0.0.1:8080 --ruleset sichuan --create [--bots strong,basic]
//   mahjong-bot --server http://127.0.0.1:8080 --join JWAZKH
//   mahjong-bot --server http://127.0.0.1:8080 --quick sichuan
//
// It signs up a guest (--name), takes a seat, plays until the table closes, and prints one
// JSON line: the table, how it ended, the actions sent and the final scores. Node 20 needs
// `--experimental-websocket` (Node 22 and later have WebSocket built in).

import { parseArgs } from 'node:util';

import { eventfulPolicy, playSeat, seededRandom } from '../dist/bot.js';
import { HttpClient } from '../dist/index.js';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: 'http://127.0.0.1:8080' },
    name: { type: 'string', default: 'sdk-bot' },
    ruleset: { type: 'string' },
    create: { type: 'boolean', default: false },
    bots: { type: 'string' },
    hands: { type: 'string' },
    join: { type: 'string' },
    quick: { type: 'string' },
    seed: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help || (!values.create && !values.join && !values.quick)) {
  console.log('usage: mahjong-bot [--server URL] [--name NAME] (--create --ruleset ID [--bots L,L] [--hands N] | --join CODE | --quick RULESET) [--seed N]');
  process.exit(values.help ? 0 : 2);
}

if (typeof globalThis.WebSocket !== 'function') {
  console.error('mahjong-bot: this node has no WebSocket; run it with `node --experimental-websocket` (Node 20) or use Node 22+');
  process.exit(2);
}

const http = new HttpClient({ baseUrl: values.server });
try {
  await http.signUp(values.name);
  let seated;
  if (values.create) {
    if (!values.ruleset) throw new Error('--create needs --ruleset');
    seated = await http.createRoom({
      ruleset: values.ruleset,
      options: {},
      bots: values.bots ? values.bots.split(',') : [],
      ...(values.hands ? { hands: Number(values.hands) } : {}),
    });
    console.error(`mahjong-bot: created table ${seated.table}, join code ${seated.code}`);
  } else if (values.join) {
    seated = await http.joinByCode(values.join);
  } else {
    seated = await http.quickMatch(values.quick);
  }
  const random = values.seed ? seededRandom(Number(values.seed)) : Math.random;
  const result = await playSeat({ http, table: seated.table, policy: eventfulPolicy(random) });
  console.log(
    JSON.stringify({
      table: seated.table,
      seat: seated.seat,
      ended: result.reason,
      actions: result.actions,
      refused: result.refused,
      connections: result.connections,
      scores: result.state.scores,
    }),
  );
  process.exit(result.reason === 'ended' ? 0 : 1);
} catch (e) {
  console.error(`mahjong-bot: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
}
