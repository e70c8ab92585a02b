/**
 * Whether the client of a waited call hung up, and a way to hear of it: one
 * listener at a time (a call waits once at a time). Not an AbortSignal: an
 * EventTarget, its listener records and their closures, made per call and
 * kept for the whole wait, were the largest part of what a waiting request
 * holds (docs/PERFORMANCE.md, "Live changes").
 */
export interface HangUp {
  readonly hungUp: boolean;
  /** Calls `listener` once, when the client hangs up; returns the function that stops listening. */
  listen(listener: () => void): () => void;
}
