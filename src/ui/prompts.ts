// The @inquirer prompts checkin shows (loaded by ./prompter.ts when a question is asked).
export { checkbox, confirm, input, password, search, select, Separator } from '@inquirer/prompts';
