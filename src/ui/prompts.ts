// The @inquirer prompts checkin shows, each from its own package (loaded by ./prompter.ts when a
// question is asked): the @inquirer/prompts index would bring the editor prompt's iconv-lite and
// chardet as well, 530 KB of its 605.
export { default as checkbox, Separator } from '@inquirer/checkbox';
export { default as confirm } from '@inquirer/confirm';
export { default as input } from '@inquirer/input';
export { default as password } from '@inquirer/password';
export { default as search } from '@inquirer/search';
export { default as select } from '@inquirer/select';
