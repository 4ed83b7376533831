/**
 * What the program reads the time from: one clock, given by the process (api/time.ts's `systemClock`)
 * to what needs it, and a fixed one in tests. Declared here so the log and the read models take it
 * too without importing api/ (decision 147).
 */
export type Clock = () => Date;
