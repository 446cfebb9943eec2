/**
 * MikroORM keeps entity metadata in a global store (`globalThis['mikro-orm-metadata']`) that
 * outlives a test file when jest runs several files in one worker. The next file's decorators
 * would then extend the previous file's objects, made in another realm ("Map.prototype.set called
 * on incompatible receiver" at discovery). Each file starts with an empty store.
 */
delete (globalThis as Record<string, unknown>)['mikro-orm-metadata'];
