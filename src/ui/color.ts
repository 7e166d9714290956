// One chalk instance at the level computed once from NO_COLOR / FORCE_COLOR / the TTY.
import { Chalk, type ChalkInstance } from 'chalk';
import type { ColorLevel } from './io.js';

export type Colors = ChalkInstance;

export function makeColors(level: ColorLevel): Colors {
  return new Chalk({ level });
}
