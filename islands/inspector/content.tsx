/**
 * MCP content as the inspector shows it: text, images, audio, embedded resources and resource
 * links of tool results and prompt messages, and the contents of a read resource (text, JSON
 * pretty-printed, images, other blobs as their size and a download).
 */
import { JsonBlock } from "../copy_button.tsx";
import { useSignal } from "@preact/signals";
import { describeError } from "../state.ts";
import {
  type ContentBlock,
  mcpApi,
  type ResourceContents,
  type ResourceResult,
} from "../tool_servers.ts";

/** `1.2 KB` */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The size of base64 data once decoded. */
function decodedSize(base64: string): number {
  const clean = base64.replace(/\s/g, "");
  const padding = clean.endsWith("==") ? 2 : clean.endsWith("=") ? 1 : 0;
  return Math.floor(clean.length * 3 / 4) - padding;
}

/** Saves base64 data as a file through a temporary `blob:` link. */
function download(base64: string, mimeType: string, name: string): void {
  const bytes = Uint8Array.from(atob(base64.replace(/\s/g, "")), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: mimeType }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The last path segment of a URI, as a file name. */
function fileName(uri: string | undefined, fallback: string): string {
  const last = uri?.split(/[/?#]/).filter(Boolean).pop();
  return last && last.length <= 100 ? last : fallback;
}

/** Base64 data: an image shown, anything else its size and a download button. */
function Binary(
  { data, mimeType, name }: { data: string; mimeType: string; name: string },
) {
  if (mimeType.startsWith("image/")) {
    return <img class="content-image" src={`data:${mimeType};base64,${data}`} alt={name} />;
  }
  return (
    <p class="content-blob">
      <span>{mimeType}, {formatBytes(decodedSize(data))}</span>{" "}
      <button type="button" onClick={() => download(data, mimeType, name)}>
        Download {name}
      </button>
    </p>
  );
}

const isJson = (mimeType = "") => /^application\/(.+\+)?json\b/.test(mimeType);

/** Text as it reads best: JSON pretty-printed, anything else as it is. */
function Text({ text, mimeType }: { text: string; mimeType?: string }) {
  if (isJson(mimeType)) {
    try {
      return <pre class="json">{JSON.stringify(JSON.parse(text), null, 2)}</pre>;
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  return <pre class="content-text">{text}</pre>;
}

/** One item of a resource's contents. */
export function ResourceContentsView({ contents }: { contents: ResourceContents }) {
  const mimeType = contents.mimeType ?? "";
  return (
    <div class="resource-contents">
      <p class="content-meta">
        <code>{contents.uri}</code>
        {mimeType ? <span class="badge">{mimeType}</span> : null}
      </p>
      {typeof contents.text === "string"
        ? <Text text={contents.text} mimeType={mimeType} />
        : typeof contents.blob === "string"
        ? (
          <Binary
            data={contents.blob}
            mimeType={mimeType || "application/octet-stream"}
            name={fileName(contents.uri, "resource")}
          />
        )
        : <JsonBlock value={contents} />}
    </div>
  );
}

/** A `resource_link` block, with a button that reads the resource from its server. */
function ResourceLink({ block, serverId }: { block: ContentBlock; serverId: string }) {
  const read = useSignal<ResourceResult | string | null>(null);
  const busy = useSignal(false);
  const uri = String(block.uri ?? "");
  return (
    <div class="content-link">
      <p class="content-meta">
        Resource link <code>{uri}</code>
        {block.name ? <span>{String(block.name)}</span> : null}
        {block.mimeType ? <span class="badge">{block.mimeType}</span> : null}
        <button
          type="button"
          disabled={busy.value}
          onClick={async () => {
            busy.value = true;
            try {
              read.value = await mcpApi.resource(serverId, uri);
            } catch (error) {
              read.value = describeError(error);
            } finally {
              busy.value = false;
            }
          }}
        >
          Read
        </button>
      </p>
      {typeof read.value === "string"
        ? <p class="error" role="alert">{read.value}</p>
        : read.value?.contents.map((contents, i) => (
          <ResourceContentsView key={i} contents={contents} />
        ))}
    </div>
  );
}

/** One content block. */
export function ContentBlockView({ block, serverId }: { block: ContentBlock; serverId: string }) {
  switch (block.type) {
    case "text":
      return <pre class="content-text">{String(block.text ?? "")}</pre>;
    case "image":
    case "audio":
      return (
        <Binary
          data={String(block.data ?? "")}
          mimeType={block.mimeType ?? "application/octet-stream"}
          name={`${block.type} (${block.mimeType ?? "unknown type"})`}
        />
      );
    case "resource":
      return block.resource
        ? <ResourceContentsView contents={block.resource} />
        : <JsonBlock value={block} />;
    case "resource_link":
      return <ResourceLink block={block} serverId={serverId} />;
    default:
      return <JsonBlock value={block} />;
  }
}

/** A list of content blocks. */
export function ContentBlocks({ blocks, serverId }: { blocks: ContentBlock[]; serverId: string }) {
  if (blocks.length === 0) return <p class="hint">No content.</p>;
  return (
    <div class="content-blocks">
      {blocks.map((block, i) => <ContentBlockView key={i} block={block} serverId={serverId} />)}
    </div>
  );
}
