/** Generative-UI test helpers: offers over the standard catalog and a renderability check. */
import assert from "node:assert/strict";
import type { LoadedCatalog } from "../core/genui/catalog.ts";
import { openOffer, type UiOffer } from "../core/genui/offer.ts";
import { standardCatalog } from "../core/genui/standard_catalog.ts";

/** An offer of the standard catalog (as the registry lists it) with nothing denied. */
export function standardOffer(overrides: Partial<UiOffer> = {}): UiOffer {
  return { ...openOffer([standardCatalog]), ...overrides };
}

/**
 * Feeds messages to `@a2ui/web_core`'s MessageProcessor with the given catalogs (default: the
 * basic catalog), as a browser renderer would; throws when it rejects one.
 */
export async function assertRenderable(messages: unknown[], catalogs?: LoadedCatalog[]) {
  const { MessageProcessor, Catalog } = await import("@a2ui/web_core/v0_9");
  const { basicCatalog } = await import("@a2ui/web_core/v0_9/basic_catalog");
  const runtime = catalogs
    ? await Promise.all(
      catalogs.map(async (catalog) =>
        catalog.source === "standard" ? basicCatalog : new Catalog(
          catalog.catalogId,
          [...await catalog.validators()].map(([name, validator]) => ({
            name,
            schema: validator.schema,
          })),
        )
      ),
    )
    : [basicCatalog];
  // deno-lint-ignore no-explicit-any
  const processor = new MessageProcessor(runtime as any);
  assert.ok(messages.length >= 2, "a surface has at least createSurface and updateComponents");
  processor.processMessages(messages as never);
}

/** A small custom catalog: a Banner with a required message and a tone enum, and a Badge. */
export function bannerCatalog(catalogId = "https://example.com/catalogs/banner/v1/catalog.json") {
  return {
    catalogId,
    title: "Banners",
    components: {
      Banner: {
        type: "object",
        description: "A coloured strip with a message. Use it for notices.",
        allOf: [
          { $ref: "common_types.json#/$defs/ComponentCommon" },
          {
            properties: {
              component: { const: "Banner" },
              message: { $ref: "common_types.json#/$defs/DynamicString" },
              tone: { type: "string", enum: ["info", "warn"], default: "info" },
              child: { $ref: "common_types.json#/$defs/ComponentId" },
            },
            required: ["component", "message"],
          },
        ],
      },
      Badge: {
        type: "object",
        properties: {
          component: { const: "Badge" },
          label: { type: "string" },
        },
        required: ["component", "label"],
      },
    },
  };
}
