/** What kind of client a configured `oauth.clientId` names. */

/** Whether a client id is a client ID metadata document URL (SEP-991): https with a path. */
export function isMetadataDocumentUrl(clientId: string | undefined): boolean {
  if (!clientId) return false;
  try {
    const url = new URL(clientId);
    return url.protocol === "https:" && url.pathname !== "/";
  } catch {
    return false;
  }
}
