/** Each component of a catalog, rendered from `POST /api/ui/preview`'s component request: to be written. */

/** The props of {@link CatalogPreview}. */
export interface CatalogPreviewProps {
  /** The catalog's record id (`standard` for the standard catalog). */
  catalogId: string;
}

/** Renders every component of a catalog. */
export default function CatalogPreview({ catalogId }: CatalogPreviewProps) {
  return <p class="note">Component previews of {catalogId}: to be written.</p>;
}
