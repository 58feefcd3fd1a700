/**
 * Hands `url` to the browser as a download, as a link marked `download` is: the browser saves
 * the answer to disk as it arrives, however large, under the name the answer gives
 * (`Content-Disposition`). A path on the API (`/api/…`) is taken to the API's host when
 * `apiBase` names one.
 */
export function openDownload(url: string, document: Document, apiBase = '/api'): void {
  const link = document.createElement('a');
  link.href = /^https?:\/\//i.test(apiBase) ? new URL(url, apiBase).toString() : url;
  link.download = '';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}
