// The local dynalite engine's own process (spawned by dynamo.ts): dynalite's library on a LevelDB
// path, answering on a port and printing it (its CLI reads --port 0 as 4567).
//
// Argument: JSON {path, port}. The process exits when its stdin closes, so a crashed parent never
// leaves it holding the directory (a second dynalite on one path crashes on its first request).
'use strict';

const { dirname, join } = require('node:path');

const dynaliteMain = require.resolve('dynalite');
const dynaliteDb = require(join(dirname(dynaliteMain), 'db'));
const { path, port } = JSON.parse(process.argv[2]);

/**
 * Table definitions kept in memory. dynalite reads the table's definition (the key schema and every
 * index, a few KB of JSON) from LevelDB and decodes it again on every item call: a sixth of the
 * engine's CPU in the bank bench's profile (2026-11-27, `PATROL_DYNALITE_CPU_PROF`). This process
 * is the only one that opens its path, and every change of a definition (create, update, delete
 * table, and dynalite's own status moves) is a put or a delete through the same `tableDb`, so a
 * definition is cached when read and dropped on any write of it.
 */
function cacheTableDefinitions(store) {
  const { tableDb } = store;
  const cached = new Map();
  const get = tableDb.get.bind(tableDb);
  const put = tableDb.put.bind(tableDb);
  const del = tableDb.del.bind(tableDb);
  tableDb.get = (name, cb) => {
    if (cached.has(name)) {
      const table = cached.get(name);
      queueMicrotask(() => cb(null, table));
      return;
    }
    get(name, (err, table) => {
      if (!err && table && typeof table === 'object') cached.set(name, table);
      cb(err, table);
    });
  };
  tableDb.put = (name, value, cb) => {
    cached.delete(name);
    put(name, value, (err) => {
      cached.delete(name);
      cb(err);
    });
  };
  tableDb.del = (name, cb) => {
    cached.delete(name);
    del(name, (err) => {
      cached.delete(name);
      cb(err);
    });
  };
  return store;
}

const create = dynaliteDb.create;
dynaliteDb.create = (options) => cacheTableDefinitions(create(options));

const server = require(dynaliteMain)({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
server.listen(port, '127.0.0.1', () => console.log(`PORT ${server.address().port}`));
const quit = () => server.close(() => process.exit(0));
process.stdin.on('end', quit).resume();
// Ctrl-C (and a signal to the whole process group) reaches this child too. It must outlive the
// parent's drain of its running work, so only the parent stops it (stdin ends).
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
