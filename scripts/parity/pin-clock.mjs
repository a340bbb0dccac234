// Preloaded (`node --import`) into a reference CLI run by the parity harnesses: pins the clock to
// PARITY_NOW, so a verdict never depends on the day the harness runs.
const pinned = Date.parse(process.env.PARITY_NOW ?? "");
if (!Number.isNaN(pinned)) {
  const RealDate = Date;
  class PinnedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(pinned);
      else super(...args);
    }
    static now() {
      return pinned;
    }
  }
  globalThis.Date = PinnedDate;
}
