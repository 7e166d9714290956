// What a question is, whoever asks it: the key-driven prompts (./prompter.ts) and the accessible
// mode's plain lines (./plain-prompts.ts) answer the same Prompter, with the same values.

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

export interface Prompter {
  input(message: string, opts?: { default?: string }): Promise<string>;
  /**
   * An answer of several lines, starting from `lines` (see ui/lines-prompt.ts); `onInput` hears it as
   * it is typed. `note`: a line under the question (where a suggestion came from); `keys`: how the
   * keys work in the key-driven prompt (left out where answers are typed as plain lines).
   */
  lines(message: string, opts?: { lines?: string[]; note?: string; keys?: string; onInput?: (text: string) => void }): Promise<string>;
  /** A choice found by typing part of its name. */
  search<T>(message: string, choices: Choice<T>[]): Promise<T>;
  password(message: string): Promise<string>;
  confirm(message: string, opts?: { default?: boolean }): Promise<boolean>;
  select<T>(message: string, choices: Choice<T>[], opts?: { default?: T }): Promise<T>;
  /** Several of the choices; those `checked` start picked; a `group` heads the choices under it. */
  checkbox<T>(message: string, choices: Array<Choice<T> & { checked?: boolean; group?: string }>): Promise<T[]>;
  /** Starts loading the prompts (once the requests being made are sent), so the first question is not kept waiting for them. */
  warm?(): void;
}
