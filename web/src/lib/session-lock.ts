/**
 * One task at a time per name, across this browser's tabs: the Web Locks API
 * (`navigator.locks`), or, where a browser lacks it, a queue within this tab.
 */
const queues = new Map<string, Promise<unknown>>();

function inThisTab<T>(name: string, task: () => Promise<T>): Promise<T> {
  const before = queues.get(name) ?? Promise.resolve();
  const run = before.then(task, task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(name, settled);
  void settled.then(() => {
    if (queues.get(name) === settled) queues.delete(name);
  });
  return run;
}

/** Runs `task` holding the lock `name`; the next holder starts once it has settled. */
export function withLock<T>(name: string, task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (locks && typeof locks.request === 'function') return locks.request(name, task);
  return inThisTab(name, task);
}
