/** The props a settings section takes, shared by the sections and the page that lists them. */

/** What a section page gets: the record id in the URL (`new` for a new one), if any. */
export interface SectionProps {
  selected?: string;
}
