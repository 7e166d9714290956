// Types for what the tests read of scripts/build-rules.mjs.
export const PRELOADED: string[];
export const LAZY_BUILTIN: string;
