export * from './generated/protocol.js';
export * from './generated/api.js';
export * from './tiles.js';
export * from './reducer.js';
export * from './connection.js';
export * from './http.js';
export * from './replay.js';
