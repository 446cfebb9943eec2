import { modules } from '../modules';

/** Every entity, listed explicitly so the same list works from TypeScript (tests) and dist. */
export const entities = modules.flatMap((m) => m.entities);
