/**
 * glibc malloc settings the Dockerfile sets for every app (its `ENV` line; a test in
 * test/deploy/deployment-artifacts.test.ts keeps the two equal) and `npm start` gives the apps
 * it starts (scripts/start-all.ts), unless the environment sets them already. Node's threads each get a
 * malloc arena, and glibc keeps freed memory in them; with few arenas, a fixed threshold
 * above which allocations are mapped on their own (so freeing them returns them at once),
 * and trimming from 128 KiB, a server that serialized a large answer gives that memory back
 * instead of keeping it as RSS.
 */
export const ALLOCATOR_SETTINGS: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
};
