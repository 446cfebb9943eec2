import * as nodeModule from 'node:module';

/**
 * V8's code cache for every module loaded after this one (Node ≥ 22.1: `module.enableCompileCache`;
 * a no-op on older Nodes): a process started again with the same files compiles none of them anew.
 * Imported first by the entry points (main, worker). The cache lives in NODE_COMPILE_CACHE when set,
 * else in the system's temporary directory; Node checks each entry against its file, so a rebuilt
 * file is compiled again.
 */
const { enableCompileCache } = nodeModule as { enableCompileCache?: (dir?: string) => unknown };
if (typeof enableCompileCache === 'function' && process.env.NODE_DISABLE_COMPILE_CACHE === undefined) enableCompileCache();
