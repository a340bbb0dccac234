// Callers of one lock within one process wait here in arrival order, so the file lock only arbitrates
// between processes. A waiter gives up (lock_timeout) when its own deadline passes.

interface Waiter {
  grant(): void;
}

interface Queue {
  held: boolean;
  waiters: Waiter[];
}

const queues = new Map<string, Queue>();
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Resolves when it is this caller's turn; rejects with `onTimeout()` if that has not come by `deadline`. */
export function enterQueue(key: string, deadline: number, onTimeout: () => Error): Promise<void> {
  let queue = queues.get(key);
  if (!queue) {
    queue = { held: false, waiters: [] };
    queues.set(key, queue);
  }
  if (!queue.held) {
    queue.held = true;
    return Promise.resolve();
  }
  const q = queue;
  const delay = Math.max(0, deadline - Date.now());
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const waiter: Waiter = {
      grant: () => {
        clearTimeout(timer);
        resolve();
      },
    };
    // setTimeout cannot wait longer than 2^31-1 ms (it would fire at once): longer deadlines never expire.
    if (delay <= MAX_TIMER_MS) {
      timer = setTimeout(() => {
        const at = q.waiters.indexOf(waiter);
        if (at !== -1) q.waiters.splice(at, 1);
        reject(onTimeout());
      }, delay);
    }
    q.waiters.push(waiter);
  });
}

/** Hand the turn to the next waiter, or free the lock for the next arrival. */
export function leaveQueue(key: string): void {
  const queue = queues.get(key);
  if (!queue) return;
  const next = queue.waiters.shift();
  if (next) next.grant();
  else queues.delete(key);
}
