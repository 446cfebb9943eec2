/**
 * MikroORM keeps decorator metadata in `globalThis['mikro-orm-metadata']`, which outlives a test
 * file when the next file runs in the same worker: its entities then reuse the previous file's
 * metadata objects (from another realm), and MikroORM.init fails with "Map.prototype.set called on
 * incompatible receiver". Each test file starts from empty metadata instead.
 */
delete (globalThis as Record<string, unknown>)['mikro-orm-metadata'];
