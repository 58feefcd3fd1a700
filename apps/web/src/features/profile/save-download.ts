/** The file name an answer's `Content-Disposition` gives, or `fallback`. */
export function fileNameOf(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"/\\]+)"/.exec(header)?.[1];
  return name ?? fallback;
}

/**
 * Saves a downloaded answer as a file under the name the server gave it. The browser keeps a
 * large body on disk rather than in memory while it is read into the blob.
 */
export async function saveDownload(response: Response, document: Document): Promise<void> {
  const name = fileNameOf(response, 'mates-data.zip');
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled; free it after this task.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
