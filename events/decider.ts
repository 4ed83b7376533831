/**
 * A stream's rules as pure functions: `decide` turns a command and the current state into events
 * (or throws a DomainError), `evolve` folds an event into the state. Tested as given/when/then specs.
 */
export interface Decider<S, E extends { type: string; data: unknown }, C> {
  initial: S;
  evolve(state: S, event: E): S;
  /** `version` is the stream's, for rules that compare it with one a client stated. */
  decide(command: C, state: S, version?: number): E[];
}
