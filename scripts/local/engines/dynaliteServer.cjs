// The local dynalite engine's own process (spawned by dynamo.ts): dynalite's library on a LevelDB
// path, answering on a port and printing it (its CLI reads --port 0 as 4567).
//
// Argument: JSON {path, port}; without a path, dynalite keeps its tables in memory. The process exits when its stdin closes, so a crashed parent never
// leaves it holding the directory (a second dynalite on one path crashes on its first request).
'use strict';

const { dirname, join } = require('node:path');
const { Readable } = require('node:stream');

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
  // Moves on every write: a read that began before a write does not cache what it read.
  let writes = 0;
  const get = tableDb.get.bind(tableDb);
  const put = tableDb.put.bind(tableDb);
  const del = tableDb.del.bind(tableDb);
  tableDb.get = (name, cb) => {
    if (cached.has(name)) {
      const table = cached.get(name);
      queueMicrotask(() => cb(null, table));
      return;
    }
    const before = writes;
    get(name, (err, table) => {
      if (!err && table && typeof table === 'object' && writes === before) cached.set(name, table);
      cb(err, table);
    });
  };
  const dropping =
    (write) =>
    (name, ...args) => {
      writes++;
      cached.delete(name);
      const cb = args.pop();
      write(name, ...args, (err) => {
        writes++;
        cached.delete(name);
        cb(err);
      });
    };
  tableDb.put = dropping(put);
  tableDb.del = dropping(del);
  return store;
}

/**
 * Global secondary indexes created on an existing table. dynalite validates an UpdateTable's
 * `Create` and then ignores it (4.0.0 changes throughput only), so a DATA_DIR from before a new
 * index would run without it (`ensureTable` adds the missing ones at start). This adds the index to
 * the table's definition and fills it from the items already stored, with dynalite's own index
 * writer (`updateIndexes`, the one every put uses), under the table's lock. The stack starts after
 * `ensureTable`, so nothing writes meanwhile.
 */
function withIndexCreation(updateTable) {
  return function updateTableCreatingIndexes(store, data, cb) {
    const updates = data.GlobalSecondaryIndexUpdates || [];
    const creates = updates.filter((u) => u.Create).map((u) => u.Create);
    if (creates.length === 0) return updateTable(store, data, cb);
    if (creates.length !== updates.length || data.ProvisionedThroughput || data.BillingMode)
      return cb(dynaliteDb.validationError('Create an index in an UpdateTable call of its own'));
    const name = data.TableName;
    store.tableDb.lock(name, (release) => {
      const done = release(cb);
      store.getTable(name, false, (err, table) => {
        if (err) return done(err);
        const existing = new Set((table.GlobalSecondaryIndexes || []).map((i) => i.IndexName));
        const clash = creates.find((c) => existing.has(c.IndexName));
        if (clash)
          return done(
            dynaliteDb.validationError(`Attempting to create an index which already exists: ${clash.IndexName}`),
          );
        const added = creates.map((c) => ({
          ...c,
          IndexArn: `${table.TableArn}/index/${c.IndexName}`,
          IndexSizeBytes: 0,
          ItemCount: 0,
          IndexStatus: 'ACTIVE',
          ProvisionedThroughput: { ReadCapacityUnits: 0, WriteCapacityUnits: 0, NumberOfDecreasesToday: 0 },
        }));
        // The new index's key attributes join the definitions its entries are keyed by.
        const known = new Set((table.AttributeDefinitions || []).map((a) => a.AttributeName));
        const AttributeDefinitions = [
          ...(table.AttributeDefinitions || []),
          ...(data.AttributeDefinitions || []).filter((a) => !known.has(a.AttributeName)),
        ];
        const next = {
          ...table,
          AttributeDefinitions,
          GlobalSecondaryIndexes: [...(table.GlobalSecondaryIndexes || []), ...added],
        };
        fillIndexes(store, { ...next, LocalSecondaryIndexes: [], GlobalSecondaryIndexes: added })
          .then(() => {
            store.tableDb.put(name, next, (putErr) => done(putErr, putErr ? undefined : { TableDescription: next }));
          })
          .catch(done);
      });
    });
  };
}

/** Writes the entries of `onlyNew`'s indexes for every item of its table. */
async function fillIndexes(store, onlyNew) {
  const write = (item) =>
    new Promise((resolve, reject) => {
      try {
        dynaliteDb.updateIndexes(store, onlyNew, null, item, (err) => (err ? reject(err) : resolve()));
      } catch (err) {
        reject(err);
      }
    });
  for await (const item of store.getItemDb(onlyNew.TableName).createValueStream()) await write(item);
}

// Swapped in the module cache before dynalite's main module loads its actions and validations.
const updateTablePath = require.resolve(join(dirname(dynaliteMain), 'actions', 'updateTable'));
const updateTable = require(updateTablePath);
require.cache[updateTablePath].exports = withIndexCreation(updateTable);
// As DynamoDB: an on-demand table's new index takes no throughput (dynalite asks for one).
const updateTableInput = require(join(dirname(dynaliteMain), 'validations', 'updateTable'));
// And its AttributeDefinitions (a new index's key attributes), which dynalite's UpdateTable drops
// before the action sees them, as it drops every field it does not list.
const createTableInput = require(join(dirname(dynaliteMain), 'validations', 'createTable'));
const { notNull: _notNull, required: _required, ...attributeDefinitions } = createTableInput.types.AttributeDefinitions;
updateTableInput.types.AttributeDefinitions = attributeDefinitions; // optional here, as in DynamoDB
// (dynalite applies any `notNull` key it finds, whatever its value: so it goes.)
delete updateTableInput.types.GlobalSecondaryIndexUpdates.children.children.Create.children.ProvisionedThroughput
  .notNull;

/**
 * Reads that close their LevelDB iterator. dynalite turns an iterator into a stream that never
 * closes it: at the end it stops asking, and on destroy it calls a `return()` that abstract-level's
 * iterators do not have. Each open iterator holds a snapshot, so every Query and Scan pinned the
 * table files of its moment: the engine's directory grew with all it ever wrote (9.4 GB in 4 minutes
 * of the 1,000-account bank bench, 261 MB once reopened) until a restart. `Readable.from` reads the
 * iterator's own async iteration, which closes it at the end, on an error and on destroy.
 */
function closingStreams(store) {
  const level = store.db;
  level.createValueStream = (options) => Readable.from(level.values(options));
  level.createKeyStream = (options) => Readable.from(level.keys(options));
  return store;
}

const create = dynaliteDb.create;
dynaliteDb.create = (options) => closingStreams(cacheTableDefinitions(create(options)));

const server = require(dynaliteMain)({ path, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
// A bench's count of calls by operation (`PATROL_DYNALITE_COUNTS=<file>`, written every 2 s): what a
// workload asks of the engine, beside its CPU.
if (process.env.PATROL_DYNALITE_COUNTS) {
  const counts = {};
  // By operation and the kind of item (the key's prefix before its first '#' or digit; an id
  // counter or a unique key by its whole name, its numbers as N).
  const kindOf = (body) => {
    try {
      const j = JSON.parse(body);
      // A batch names the kind of its first key (or put item).
      const batch = j.RequestItems && Object.values(j.RequestItems)[0];
      const first = batch && (batch.Keys?.[0] || batch[0]?.PutRequest?.Item || batch[0]?.DeleteRequest?.Key);
      const key = j.Key || j.Item || first || {};
      const pk = key.pk?.S ?? (j.KeyConditionExpression ? Object.values(j.ExpressionAttributeValues || {})[0]?.S : '');
      const name = String(pk ?? '');
      // A counter names its partition: `count#check_log:subtask_id=12` counts as `count#check_log:subtask_id`.
      if (name.startsWith('count#')) return name.split('=')[0].replace(/[0-9]+/g, 'N');
      if (name.startsWith('counter#') || name.startsWith('unique')) return name.replace(/[0-9]+/g, 'N');
      return name.split(/[#0-9=]/)[0] || '-';
    } catch {
      return '?';
    }
  };
  server.on('request', (req) => {
    const op = String(req.headers['x-amz-target'] || '').split('.')[1] || 'other';
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const name = `${op} ${kindOf(Buffer.concat(chunks).toString('utf8'))}`;
      counts[name] = (counts[name] || 0) + 1;
    });
  });
  setInterval(
    () => require('node:fs').writeFileSync(process.env.PATROL_DYNALITE_COUNTS, JSON.stringify(counts)),
    2000,
  ).unref();
}
server.listen(port, '127.0.0.1', () => console.log(`PORT ${server.address().port}`));
const quit = () => server.close(() => process.exit(0));
process.stdin.on('end', quit).resume();
// Ctrl-C (and a signal to the whole process group) reaches this child too. It must outlive the
// parent's drain of its running work, so only the parent stops it (stdin ends).
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
