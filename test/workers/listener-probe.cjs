// Preloaded (`node --require`) into a long-running aop process by tests: counts the event listeners the
// process holds, so a test can see whether they pile up. On SIGUSR2 it collects garbage (objects gone
// take their listeners with them), then writes `aop-listener-probe {"listeners":N}` to stderr.
"use strict";
const { EventEmitter, getEventListeners } = require("node:events");
const v8 = require("node:v8");
const vm = require("node:vm");

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");
const targets = new Set();
const types = new WeakMap();

function track(target, type) {
  let seen = types.get(target);
  if (!seen) {
    seen = new Set();
    types.set(target, seen);
    targets.add(new WeakRef(target));
  }
  seen.add(type);
}

const { EventTarget } = globalThis;
const addEventListener = EventTarget.prototype.addEventListener;
EventTarget.prototype.addEventListener = function (type, ...rest) {
  track(this, type);
  return addEventListener.call(this, type, ...rest);
};
for (const name of ["addListener", "on", "once", "prependListener", "prependOnceListener"]) {
  const original = EventEmitter.prototype[name];
  EventEmitter.prototype[name] = function (type, ...rest) {
    track(this, type);
    return original.call(this, type, ...rest);
  };
}

function count() {
  let n = 0;
  for (const ref of targets) {
    const target = ref.deref();
    if (!target) {
      targets.delete(ref);
      continue;
    }
    for (const type of types.get(target)) n += target instanceof EventEmitter ? target.listenerCount(type) : getEventListeners(target, type).length;
  }
  return n;
}

process.on("SIGUSR2", () => {
  gc();
  // After the current job, so that WeakRefs read in it may be cleared.
  setImmediate(() => {
    gc();
    process.stderr.write(`aop-listener-probe ${JSON.stringify({ listeners: count() })}\n`);
  });
});
