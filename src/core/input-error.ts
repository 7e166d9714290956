/** Input the user gave that cannot be used (a bad key, mood, date…): main.ts maps it to exit 2. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InputError';
  }
}
