import type { ChatExport } from '@mates/api-client';

/** Saves a text file the server wrote (an exported chat) under the server's file name. */
export function saveTextFile(file: ChatExport, document: Document): void {
  const url = URL.createObjectURL(new Blob([file.content], { type: file.mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; free it after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
