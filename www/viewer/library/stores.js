// The library's IO, for the worker: SQLite (sqlite-wasm, loaded only when a database is
// opened) over the browser's File objects, read-only and hardened as the CLI opens a
// store (crates/library/src/store.rs), and files read in pieces. What the rows and bytes
// mean is decided in Rust alone (crates/library, the same readers as the CLI's, compiled
// for this worker to ../vendor/library/ by scripts/build-library-wasm.sh): nothing here
// parses a row.

import { installFileVfs } from './file-vfs.js';
import { databaseError, maxRowBytes, walNotRead } from '../vendor/library/library.js';

/** Bytes read from a file at a time. */
const PIECE = 1 << 20;

/** The bytes of a file (or of [start, end) of it), piece by piece. */
export async function* pieces(file, start = 0, end = file.size) {
  for (let at = start; at < end; at += PIECE) {
    yield new Uint8Array(await file.slice(at, Math.min(end, at + PIECE)).arrayBuffer());
  }
}

/** Reading a file failed: the sentence names it (as the CLI's). */
export function fileError(path, e) {
  return `cannot read ${path}: ${String(e?.message ?? e)}`;
}

let sqlitePromise = null;
let vfs = null;
let opened = 0;

/** SQLite, the first time a database is opened. */
function sqlite() {
  sqlitePromise ??= import('../vendor/sqlite-wasm/index.mjs')
    .then((m) => m.default({ print: () => {}, printErr: () => {} }))
    .then((s) => {
      vfs = installFileVfs(s);
      return s;
    });
  return sqlitePromise;
}

/** A SQLite error as Rust words it: SQLite's own message, then what its code means. */
function sqliteError(path, e) {
  const code = Number(e?.resultCode ?? 0);
  const message = String(e?.message ?? e).replace(/^SQLITE_\w+: sqlite3 result code \d+: /, '');
  return new Error(databaseError(path, code, message));
}

/**
 * A value column read with its size guard: SQLite never loads a value over the row limit
 * (nor can a generated column make a gigabyte per row: the connection's length limit is
 * the same). The value comes as bytes, to be handed to Rust as they are.
 */
const guarded = (max) => `CASE WHEN octet_length(value) <= ${max} THEN CAST(value AS BLOB) END, octet_length(value)`;

/** A Cursor or OpenCode database opened read-only, its rows as Rust's readers take them. */
export class Database {
  /**
   * Opens `file` (shown as `path`) as the CLI does: with its write-ahead log `wal` when
   * the folder has one (the log's index in memory: exclusive locking mode, set before
   * anything is read), else the file alone. A log that cannot be read is said in `note`.
   */
  static async open(path, file, wal) {
    const s = await sqlite();
    const name = `db${opened++}-${path.replace(/[^\w.-]+/g, '_')}`;
    vfs.register(name, file);
    const d = new Database(s, name, path);
    try {
      d.note = d.connect(wal);
    } catch (e) {
      d.close();
      throw sqliteError(path, e);
    }
    return d;
  }

  constructor(s, name, path) {
    this.s = s;
    this.name = name;
    this.path = path;
    this.db = null;
    this.note = null;
    this.max = maxRowBytes();
  }

  /** Opens a registered database read-only, hardened against what the file holds. */
  hardened() {
    const { capi, oo1 } = this.s;
    const db = new oo1.DB({ filename: this.name, flags: 'r', vfs: vfs.name });
    if (capi.sqlite3_limit) capi.sqlite3_limit(db.pointer, capi.SQLITE_LIMIT_LENGTH ?? 0, this.max);
    return db;
  }

  connect(wal) {
    const settle = (db) => {
      db.exec('PRAGMA trusted_schema = OFF; PRAGMA query_only = ON; PRAGMA cache_size = -2048');
      db.selectValue('SELECT count(*) FROM sqlite_master');
      this.db = db;
    };
    if (wal) {
      vfs.register(`${this.name}-wal`, wal);
      let db;
      try {
        db = this.hardened();
        db.exec('PRAGMA locking_mode = EXCLUSIVE');
        settle(db);
        return null;
      } catch (e) {
        try {
          db?.close();
        } catch {
          /* closing is best effort */
        }
        vfs.unregister(`${this.name}-wal`);
        const why = `it could not be read (${sqliteError(this.path, e).message})`;
        settle(this.hardened());
        return walNotRead(`${this.path}-wal`, wal.size, this.path, why);
      }
    }
    settle(this.hardened());
    return null;
  }

  /** A statement, its SQLite errors said as Rust says them. */
  run(f) {
    try {
      return f(this.db);
    } catch (e) {
      throw sqliteError(this.path, e);
    }
  }

  hasTable(table) {
    return this.run((db) => db.selectValue("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [table]) != null);
  }

  /** Every row of `table` with `from <= key < to`: each(key, value, length) (value null when over the limit). */
  range(table, from, to, each) {
    this.run((db) => db.exec({
      sql: `SELECT key, ${guarded(this.max)} FROM ${table} WHERE key >= ? AND key < ?`,
      bind: [from, to],
      rowMode: 'array',
      callback: ([key, value, length]) => each(String(key), value, length ?? 0),
    }));
  }

  /** The row of `key` in `table`: [value, length] (value null when over the limit), or undefined. */
  value(table, key) {
    const row = this.run((db) => db.selectArray(`SELECT ${guarded(this.max)} FROM ${table} WHERE key = ?`, [key]));
    return row ? [row[0], row[1] ?? 0] : undefined;
  }

  /** The names of the columns `sql` gives. */
  columns(sql) {
    return this.run((db) => {
      const st = db.prepare(sql);
      try {
        return st.getColumnNames();
      } finally {
        st.finalize();
      }
    });
  }

  /** Every row of `sql` (its `?1`, `?2`… bound to `bind`), one at a time: each(values in column order). */
  each(sql, bind, each) {
    this.run((db) => db.exec({ sql, bind, rowMode: 'array', callback: (row) => each(row) }));
  }

  close() {
    try {
      this.db?.close();
    } catch {
      /* closing is best effort */
    }
    vfs?.unregister(this.name);
    vfs?.unregister(`${this.name}-wal`);
  }
}
