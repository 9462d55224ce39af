// A read-only SQLite VFS over File objects, for @sqlite.org/sqlite-wasm in a
// dedicated worker. SQLite asks for pages; each read is one synchronous
// FileReaderSync.readAsArrayBuffer(file.slice(offset, offset + n)), so a 1 GB
// state.vscdb is never read whole: memory is SQLite's page cache plus the pages a
// query touches. Nothing can be written: xWrite, xTruncate and xDelete fail, and
// files are only opened as registered. A database registered without its write-ahead
// log says it is immutable (no locks, no journal or WAL files looked for); one whose
// `<name>-wal` is registered too is not, so SQLite reads the log — opened read-only
// whatever SQLite asks for, and, as this VFS has no shared memory, only with the
// connection in exclusive locking mode (the log's index in memory; locks always
// succeed here, nothing else can reach these files).
//
// Written after the pattern of sqlite-wasm's own opfs-sahpool VFS
// (sqlite3.vfs.installVfs with sqlite3_vfs and sqlite3_io_methods structs).

const NAME = 'docstream-file';

/** Installs the VFS once; returns `{ register(name, file), unregister(name), name }`. */
export function installFileVfs(sqlite3) {
  const { capi, wasm } = sqlite3;
  const files = new Map(); // name → File
  const open = new Map(); // sqlite3_file pointer → { file, name }
  const reader = new FileReaderSync();
  let lastError = null;

  const io = {
    xClose(pFile) {
      open.delete(Number(pFile));
      return 0;
    },
    xRead(pFile, pDest, n, offset64) {
      const f = open.get(Number(pFile));
      if (!f) return capi.SQLITE_IOERR_READ;
      try {
        const at = Number(offset64);
        const buf = new Uint8Array(reader.readAsArrayBuffer(f.file.slice(at, at + n)));
        const heap = wasm.heap8u();
        heap.set(buf, Number(pDest));
        if (buf.length < n) {
          heap.fill(0, Number(pDest) + buf.length, Number(pDest) + n);
          return capi.SQLITE_IOERR_SHORT_READ;
        }
        return 0;
      } catch (e) {
        lastError = e;
        return capi.SQLITE_IOERR_READ;
      }
    },
    xWrite() {
      return capi.SQLITE_READONLY;
    },
    xTruncate() {
      return capi.SQLITE_READONLY;
    },
    xSync() {
      return 0;
    },
    xFileSize(pFile, pSz64) {
      const f = open.get(Number(pFile));
      if (!f) return capi.SQLITE_IOERR_FSTAT;
      wasm.poke64(pSz64, BigInt(f.file.size));
      return 0;
    },
    xLock() {
      return 0;
    },
    xUnlock() {
      return 0;
    },
    xCheckReservedLock(pFile, pOut) {
      wasm.poke32(pOut, 0);
      return 0;
    },
    xFileControl() {
      return capi.SQLITE_NOTFOUND;
    },
    xSectorSize() {
      return 4096;
    },
    xDeviceCharacteristics(pFile) {
      const f = open.get(Number(pFile));
      if (f && (f.name.endsWith('-wal') || files.has(`${f.name}-wal`))) return 0;
      return capi.SQLITE_IOCAP_IMMUTABLE;
    },
  };
  const ioStruct = new capi.sqlite3_io_methods();
  ioStruct.$iVersion = 1;
  sqlite3.vfs.installVfs({ io: { struct: ioStruct, methods: io } });

  const vfs = new capi.sqlite3_vfs();
  const pDefault = capi.sqlite3_vfs_find(null);
  const dflt = pDefault ? new capi.sqlite3_vfs(pDefault) : null;
  vfs.$iVersion = 2;
  vfs.$szOsFile = capi.sqlite3_file.structInfo.sizeof;
  vfs.$mxPathname = 1024;
  vfs.addOnDispose((vfs.$zName = wasm.allocCString(NAME)));
  const methods = {
    xOpen(pVfs, zName, pFile, flags, pOutFlags) {
      const name = zName ? wasm.cstrToJs(zName) : '';
      const file = files.get(name);
      // SQLite opens a log asking to write it; it is told the log is read-only.
      const wal = (flags & (capi.SQLITE_OPEN_WAL ?? 0x80000)) !== 0;
      if (!file || (!wal && flags & (capi.SQLITE_OPEN_READWRITE | capi.SQLITE_OPEN_CREATE))) {
        lastError = new Error(file ? `${name} opens read-only` : `no file ${name}`);
        return capi.SQLITE_CANTOPEN;
      }
      open.set(Number(pFile), { file, name });
      const s = new capi.sqlite3_file(pFile);
      s.$pMethods = ioStruct.pointer;
      s.dispose();
      wasm.poke32(pOutFlags, capi.SQLITE_OPEN_READONLY);
      return 0;
    },
    xDelete() {
      return capi.SQLITE_READONLY;
    },
    xAccess(pVfs, zName, flags, pOut) {
      // Only registered files exist: no journal, no WAL, no -shm.
      wasm.poke32(pOut, files.has(wasm.cstrToJs(zName)) ? 1 : 0);
      return 0;
    },
    xFullPathname(pVfs, zName, nOut, pOut) {
      return wasm.cstrncpy(pOut, zName, nOut) < nOut ? 0 : capi.SQLITE_CANTOPEN;
    },
    xGetLastError(pVfs, nOut, pOut) {
      const e = lastError;
      lastError = null;
      if (e) {
        const scope = wasm.scopedAllocPush();
        try {
          const [c] = wasm.scopedAllocCString(String(e.message ?? e), true);
          wasm.cstrncpy(pOut, c, nOut);
        } finally {
          wasm.scopedAllocPop(scope);
        }
      }
      return e ? capi.SQLITE_IOERR : 0;
    },
    xCurrentTime(pVfs, pOut) {
      wasm.poke(pOut, 2440587.5 + Date.now() / 864e5, 'double');
      return 0;
    },
    xCurrentTimeInt64(pVfs, pOut) {
      wasm.poke(pOut, 210866760000000 + Date.now(), 'i64');
      return 0;
    },
    xSleep() {
      return 0;
    },
  };
  if (dflt) {
    vfs.$xRandomness = dflt.$xRandomness;
    dflt.dispose();
  } else {
    methods.xRandomness = (pVfs, nOut, pOut) => {
      const heap = wasm.heap8u();
      for (let i = 0; i < nOut; i++) heap[Number(pOut) + i] = (Math.random() * 256) & 255;
      return nOut;
    };
  }
  sqlite3.vfs.installVfs({ vfs: { struct: vfs, methods } });

  return {
    name: NAME,
    register(name, file) {
      files.set(name, file);
    },
    unregister(name) {
      files.delete(name);
    },
  };
}
