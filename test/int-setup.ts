// MikroORM keeps entity metadata on a process-wide global; drop the previous test file's copy.
for (const key of Object.keys(globalThis)) if (key.startsWith('mikro-orm-')) delete (globalThis as Record<string, unknown>)[key];
