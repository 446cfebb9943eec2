/**
 * MikroORM keeps entity metadata in `globalThis['mikro-orm-metadata']`, which outlives a test file
 * inside a jest worker: the next file would reuse metadata (and Maps) from the previous file's
 * realm and fail in MetadataDiscovery ("Map.prototype.set called on incompatible receiver").
 * Start every test file with empty storage.
 */
for (const key of Object.keys(globalThis)) {
  if (key.startsWith('mikro-orm-')) delete (globalThis as Record<string, unknown>)[key];
}
