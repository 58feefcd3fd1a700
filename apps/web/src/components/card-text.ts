/** Card macros as a reader sees them: `{{char}}` is the mate, `{{user}}` the reader. */
export const fillMacros = (text: string, name: string, you: string): string =>
  text.replace(/\{\{char\}\}/gi, name).replace(/\{\{user\}\}/gi, you);
