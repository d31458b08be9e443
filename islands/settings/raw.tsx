/** Settings: the whole config as JSON, saved with the same validation. */
/** The raw config section. */
export function RawConfigSection() {
  return <p>Raw config: to be written.</p>;
}
