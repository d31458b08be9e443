/**
 * A View may ask to open a link; Lass opens it in a new tab only after the person agrees, in
 * place under the View (the click on "Open" is the user gesture the new tab needs).
 */
import { signal } from "@preact/signals";

interface LinkRequest {
  url: string;
  answer: (opened: boolean) => void;
}

/** Whether a URL may be offered at all: http(s) and mailto only. */
export function openableUrl(url: string): boolean {
  try {
    return ["http:", "https:", "mailto:"].includes(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** The link requests of one View, answered one at a time. */
export class LinkRequests {
  readonly queue = signal<LinkRequest[]>([]);

  /** Asks the person; resolves `true` once the link is opened, `false` when declined or refused. */
  ask(url: string): Promise<boolean> {
    if (!openableUrl(url)) return Promise.resolve(false);
    return new Promise((resolve) => {
      const request: LinkRequest = {
        url,
        answer: (opened) => {
          this.queue.value = this.queue.peek().filter((queued) => queued !== request);
          resolve(opened);
        },
      };
      this.queue.value = [...this.queue.peek(), request];
    });
  }

  /** Declines every open request (the View went away). */
  declineAll(): void {
    for (const request of this.queue.peek()) request.answer(false);
  }
}

/** The first pending request, as a question with Open and Cancel. */
export function LinkConsent({ requests, who }: { requests: LinkRequests; who: string }) {
  const request = requests.queue.value[0];
  if (!request) return null;
  const open = () => {
    globalThis.open(request.url, "_blank", "noopener,noreferrer");
    request.answer(true);
  };
  return (
    <div class="mcp-consent" role="group" aria-label="Open a link?">
      <p>
        {who} wants to open <code class="mcp-consent-url">{request.url}</code> in a new tab.
      </p>
      <div class="actions">
        <button type="button" class="primary" onClick={open}>Open link</button>
        <button type="button" onClick={() => request.answer(false)}>Cancel</button>
      </div>
    </div>
  );
}
