// A clock for a child process that is not this one's: `node --require` this file, and the process's
// `Date` (new Date(), Date.now()) reads CHECKIN_TEST_CLOCK_SHIFT_MS milliseconds ahead of the real
// clock. For tests that run the built CLI on another day (test/cli/doc-examples.test.ts): nothing
// sleeps, and timers are untouched.
'use strict';
const shift = Number(process.env.CHECKIN_TEST_CLOCK_SHIFT_MS || 0);
if (shift) {
  const RealDate = Date;
  class ShiftedDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + shift);
      else super(...args);
    }
    static now() {
      return RealDate.now() + shift;
    }
  }
  globalThis.Date = ShiftedDate;
}
