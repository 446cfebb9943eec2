/**
 * One factory per domain: a test builds the rows it needs (and only those) instead of leaning on
 * the demo data set. Each writes through the entities, as the service would leave the rows.
 */
export * from './account';
export * from './artist';
export * from './catalog';
export * from './agent';
export * from './session';
