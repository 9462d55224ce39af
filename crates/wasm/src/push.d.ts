export interface DocStream {
    /**
     * Reads a chunk (a `Uint8Array`, an `ArrayBuffer` or a string, cut anywhere) and
     * returns the patches that bring the page up to date (none while the chunk ends no
     * line). Throws an `Error` with code `DS_FINISHED` after `finish()`, `DS_BAD_CHUNK`
     * for any other type of chunk.
     */
    push(chunk: Uint8Array | ArrayBuffer | string): Patch[];
    /**
     * Ends the stream (a response without its final event is marked cut off) and
     * returns the last patches. Throws an `Error` with code `DS_FINISHED` when called
     * twice.
     */
    finish(): Patch[];
}
